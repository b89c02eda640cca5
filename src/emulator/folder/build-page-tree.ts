// The pages and files of an imported docs folder, as the service's git sync sees it
// (docs/folder-format.md): the readme first, then what SUMMARY.md lists in its order, nesting and
// groups; without a summary every markdown file, each under the readme of the nearest folder above
// it. A summary line that cannot be read as written is read past with a warning (logged by the
// import: the service answers none); only a page that is not UTF-8 and a link holding a control
// character refuse the folder.
import type { ContentTree, TreeDocument, TreeFile, TreePage } from './content-tree.js';
import { ImportRefusedError } from './import-refused-error.js';
import { contentTypeOf, firstHeading, isMarkdownPath, pageBaseName, slugOf } from './page-naming.js';
import { readEntry } from './summary-entry.js';
import { type SummaryListEntry, summaryLines } from './summary-lines.js';

export type FolderWarningCode =
  | 'SUMMARY_DUPLICATE'
  | 'SUMMARY_MISSING_FILE'
  | 'SUMMARY_FOLDER_LINK'
  | 'SUMMARY_ENTRY_UNCLEAR'
  | 'PAGE_UNLISTED'
  | 'PATH_CASE_CLASH'
  | 'README_MISSING';

/** Something the reading went past: the file, and the summary's line when it is about one. */
export interface FolderWarning {
  code: FolderWarningCode;
  file: string;
  line?: number;
}

export interface FolderLayout {
  /** The first page, relative to the docs root (`README.md`, or `structure.readme`). */
  readme: string;
  /** The summary, relative to the docs root (`SUMMARY.md`, or `structure.summary`). */
  summary: string;
}

export interface PageTreeResult {
  tree: ContentTree;
  warnings: FolderWarning[];
  /** Whether the folder holds its summary (read, and neither a page nor a file). */
  hasSummary: boolean;
}

const STANDARD_README = 'README.md';
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The tree of the folder whose files (normalised paths relative to the docs root) are `files`. */
export function buildPageTree(files: ReadonlyMap<string, Buffer>, layout: FolderLayout): PageTreeResult {
  const warnings: FolderWarning[] = [];
  const readmeName = layout.readme.slice(layout.readme.lastIndexOf('/') + 1);
  const document = (path: string, summaryTitle: string): TreeDocument => {
    const markdown = decodePage(path, files.get(path) ?? Buffer.alloc(0));
    const baseName = pageBaseName(path, readmeName);
    const title = summaryTitle !== '' ? summaryTitle : (firstHeading(markdown) ?? baseName);
    return { path, title, slug: slugOf(baseName), markdown, pages: [] };
  };

  const summaryData = files.get(layout.summary);
  const placed = new Map<string, TreeDocument>();
  const pages =
    summaryData === undefined
      ? []
      : listedPages(decodePage(layout.summary, summaryData), {
          files,
          layout,
          readmeName,
          document,
          placed,
          warnings,
        });
  const markdownPaths = [...files.keys()]
    .filter((path) => isMarkdownPath(path) && path !== layout.summary)
    .sort(byCodeUnits);

  if (summaryData === undefined) {
    pages.push(...allPages(markdownPaths, layout.readme, readmeName, document));
  } else {
    const readme = placed.get(layout.readme);
    if (readme === undefined && files.has(layout.readme)) pages.unshift(document(layout.readme, ''));
    for (const path of markdownPaths) {
      if (!placed.has(path) && path !== layout.readme) warnings.push({ code: 'PAGE_UNLISTED', file: path });
    }
  }
  if (!files.has(layout.readme)) warnings.push({ code: 'README_MISSING', file: layout.readme });
  warnings.push(...caseClashes(files.keys()));

  const treeFiles: TreeFile[] = [];
  for (const [path, data] of files) {
    if (path === layout.summary || isMarkdownPath(path)) continue;
    const name = path.slice(path.lastIndexOf('/') + 1);
    treeFiles.push({ path, name, contentType: contentTypeOf(name), data });
  }
  treeFiles.sort((a, b) => byCodeUnits(a.path, b.path));
  return { tree: { pages, files: treeFiles }, warnings, hasSummary: summaryData !== undefined };
}

interface ListingContext {
  files: ReadonlyMap<string, Buffer>;
  layout: FolderLayout;
  readmeName: string;
  document: (path: string, summaryTitle: string) => TreeDocument;
  /** Documents placed so far, by path: a page has one place. */
  placed: Map<string, TreeDocument>;
  warnings: FolderWarning[];
}

/** What placing the summary's entries reads and builds, besides the listing's context. */
interface SummaryListing extends ListingContext {
  summaryFolder: string;
  folders: ReadonlySet<string>;
  readmeNames: readonly string[];
  /** Whether an entry was placed yet: only the first entry may name the readme. */
  progress: { firstEntry: boolean };
}

function warnAt(listing: SummaryListing, code: FolderWarningCode, line: number): void {
  listing.warnings.push({ code, file: listing.layout.summary, line });
}

/** The pages SUMMARY.md lists, top level, groups holding theirs. */
function listedPages(text: string, context: ListingContext): TreePage[] {
  const { layout } = context;
  const listing: SummaryListing = {
    ...context,
    summaryFolder: layout.summary.includes('/')
      ? layout.summary.slice(0, layout.summary.lastIndexOf('/') + 1)
      : '',
    folders: foldersOf(context.files.keys()),
    readmeNames: [...new Set([context.readmeName, STANDARD_README])],
    progress: { firstEntry: true },
  };
  const top: TreePage[] = [];
  let group: { pages: TreePage[] } | undefined;
  for (const line of summaryLines(text)) {
    if (line.kind === 'entry') {
      placeEntry(listing, line, group?.pages ?? top);
    } else if (line.kind === 'break') {
      group = undefined;
    } else {
      // Every heading ends the group above; `#` titles the summary and `##` with no text starts none.
      group = undefined;
      if (line.level === 1) continue;
      if (line.title === '') {
        warnAt(listing, 'SUMMARY_ENTRY_UNCLEAR', line.line);
        continue;
      }
      const started: TreePage = { kind: 'group', title: line.title, slug: slugOf(line.title), pages: [] };
      top.push(started);
      group = started;
    }
  }
  return top;
}

/** The markdown file the entry's target names, or undefined after a warning. */
function entryPage(
  listing: SummaryListing,
  target: { kind: 'file' | 'folder'; path: string },
  line: number,
): string | undefined {
  const { files, layout, folders } = listing;
  const { path } = target;
  if (target.kind === 'folder' || (!files.has(path) && folders.has(path))) {
    if (path === '') {
      if (!files.has(layout.readme)) warnAt(listing, 'SUMMARY_FOLDER_LINK', line);
      return files.has(layout.readme) ? layout.readme : undefined;
    }
    const readme = listing.readmeNames
      .map((name) => `${path}/${name}`)
      .find((candidate) => files.has(candidate));
    if (readme === undefined) warnAt(listing, 'SUMMARY_FOLDER_LINK', line);
    return readme;
  }
  if (path === layout.summary || !files.has(path) || !isMarkdownPath(path)) {
    warnAt(listing, 'SUMMARY_MISSING_FILE', line);
    return undefined;
  }
  return path;
}

/** Places the entries under `entry` into `pages`. */
function placeChildren(listing: SummaryListing, entry: SummaryListEntry, pages: TreePage[]): void {
  for (const child of entry.children) placeEntry(listing, child, pages);
}

/** Places one summary entry (and those under it) into `into`; an entry read past gives them its place. */
function placeEntry(listing: SummaryListing, entry: SummaryListEntry, into: TreePage[]): void {
  const { layout } = listing;
  const isFirst = listing.progress.firstEntry;
  listing.progress.firstEntry = false;
  const read = readEntry(entry.text, listing.summaryFolder, `${layout.summary}:${entry.line}`);
  if (read.textAround) warnAt(listing, 'SUMMARY_ENTRY_UNCLEAR', entry.line);
  const { target, title } = read;
  switch (target.kind) {
    case 'url': {
      const name = title === '' ? target.href : title;
      into.push({ kind: 'link', title: name, slug: slugOf(name), href: target.href });
      if (entry.children.length > 0) warnAt(listing, 'SUMMARY_ENTRY_UNCLEAR', entry.line);
      placeChildren(listing, entry, into);
      return;
    }
    case 'none': {
      if (target.anchorOnly) warnAt(listing, 'SUMMARY_ENTRY_UNCLEAR', entry.line);
      if (title === '') {
        warnAt(listing, 'SUMMARY_ENTRY_UNCLEAR', entry.line);
        placeChildren(listing, entry, into);
        return;
      }
      const placeholder: TreePage = { kind: 'placeholder', title, slug: slugOf(title), pages: [] };
      into.push(placeholder);
      placeChildren(listing, entry, placeholder.pages);
      return;
    }
    case 'outside': {
      warnAt(listing, 'SUMMARY_MISSING_FILE', entry.line);
      placeChildren(listing, entry, into);
      return;
    }
    default:
      placeDocument(listing, entry, into, { target, title, isFirst });
  }
}

/** A page or folder entry: its document placed once, else read past with a warning. */
function placeDocument(
  listing: SummaryListing,
  entry: SummaryListEntry,
  into: TreePage[],
  read: { target: { kind: 'file' | 'folder'; path: string }; title: string; isFirst: boolean },
): void {
  const { placed, layout } = listing;
  const path = entryPage(listing, read.target, entry.line);
  if (path === undefined || placed.has(path) || (path === layout.readme && !read.isFirst)) {
    if (path !== undefined && placed.has(path)) warnAt(listing, 'SUMMARY_DUPLICATE', entry.line);
    // The readme is the first page wherever the summary lists it: only the first entry names it.
    else if (path !== undefined) warnAt(listing, 'SUMMARY_ENTRY_UNCLEAR', entry.line);
    placeChildren(listing, entry, into);
    return;
  }
  const page = listing.document(path, read.title);
  placed.set(path, page);
  into.push(page);
  placeChildren(listing, entry, page.pages);
}

/**
 * Without a summary: every markdown page, the readme first, the others in path order, each under
 * the readme of the nearest folder above it (the root's readme adopts none).
 */
function allPages(
  paths: readonly string[],
  readme: string,
  readmeName: string,
  document: (path: string, summaryTitle: string) => TreeDocument,
): TreePage[] {
  const byPath = new Map(paths.map((path) => [path, document(path, '')]));
  const top: TreePage[] = [];
  const first = byPath.get(readme);
  if (first !== undefined) top.push(first);
  for (const [path, page] of byPath) {
    if (path === readme) continue;
    const parent = adopter(path, readmeName, byPath);
    // The first page adopts none, even when `structure.readme` puts it in a folder.
    (parent === undefined || parent === first ? top : parent.pages).push(page);
  }
  return top;
}

/** The readme of the nearest folder above `path` (a folder's own readme looks one further up). */
function adopter(
  path: string,
  readmeName: string,
  byPath: ReadonlyMap<string, TreeDocument>,
): TreeDocument | undefined {
  let folder = path.slice(0, Math.max(path.lastIndexOf('/'), 0));
  if (path.endsWith(`/${readmeName}`)) folder = folder.slice(0, Math.max(folder.lastIndexOf('/'), 0));
  while (folder !== '') {
    const found = byPath.get(`${folder}/${readmeName}`);
    if (found !== undefined) return found;
    folder = folder.slice(0, Math.max(folder.lastIndexOf('/'), 0));
  }
  return undefined;
}

/** Every folder holding a file, at any depth: `a/b/c.md` gives `a` and `a/b`. */
function foldersOf(paths: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const path of paths) {
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
      folders.add(path.slice(0, slash));
    }
  }
  return folders;
}

/** One warning per pair of paths equal but for letter case: a checkout on macOS or Windows holds one. */
function caseClashes(paths: Iterable<string>): FolderWarning[] {
  const byFolded = new Map<string, string[]>();
  for (const path of paths) {
    const folded = path.toLowerCase();
    const same = byFolded.get(folded);
    if (same === undefined) byFolded.set(folded, [path]);
    else same.push(path);
  }
  const warnings: FolderWarning[] = [];
  for (const same of byFolded.values()) {
    if (same.length < 2) continue;
    same.sort(byCodeUnits);
    for (const path of same.slice(0, -1)) warnings.push({ code: 'PATH_CASE_CLASH', file: path });
  }
  return warnings;
}

function decodePage(path: string, data: Buffer): string {
  try {
    return utf8.decode(data);
  } catch (error) {
    throw new ImportRefusedError(
      'CONTENT_INVALID',
      `${path} is not UTF-8 text: save it as UTF-8 and import again`,
      {
        path,
        cause: error,
      },
    );
  }
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
