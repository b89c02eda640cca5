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

/** The pages SUMMARY.md lists, top level, groups holding theirs. */
function listedPages(text: string, context: ListingContext): TreePage[] {
  const { files, layout, readmeName, document, placed, warnings } = context;
  const summaryFolder = layout.summary.includes('/')
    ? layout.summary.slice(0, layout.summary.lastIndexOf('/') + 1)
    : '';
  const folders = foldersOf(files.keys());
  const readmeNames = [...new Set([readmeName, STANDARD_README])];
  const warn = (code: FolderWarningCode, line: number): void => {
    warnings.push({ code, file: layout.summary, line });
  };
  let firstEntry = true;

  /** The markdown file the entry's target names, or undefined after a warning. */
  const pageOf = (target: { kind: 'file' | 'folder'; path: string }, line: number): string | undefined => {
    const { path } = target;
    if (target.kind === 'folder' || (!files.has(path) && folders.has(path))) {
      if (path === '') {
        if (!files.has(layout.readme)) warn('SUMMARY_FOLDER_LINK', line);
        return files.has(layout.readme) ? layout.readme : undefined;
      }
      const readme = readmeNames.map((name) => `${path}/${name}`).find((candidate) => files.has(candidate));
      if (readme === undefined) warn('SUMMARY_FOLDER_LINK', line);
      return readme;
    }
    if (path === layout.summary || !files.has(path) || !isMarkdownPath(path)) {
      warn('SUMMARY_MISSING_FILE', line);
      return undefined;
    }
    return path;
  };

  const place = (entry: SummaryListEntry, into: TreePage[]): void => {
    const isFirst = firstEntry;
    firstEntry = false;
    const read = readEntry(entry.text, summaryFolder, `${layout.summary}:${entry.line}`);
    if (read.textAround) warn('SUMMARY_ENTRY_UNCLEAR', entry.line);
    // Read past: the entries under it take its place.
    const lift = (): void => {
      for (const child of entry.children) place(child, into);
    };
    const nest = (page: { pages: TreePage[] }): TreePage[] => {
      for (const child of entry.children) place(child, page.pages);
      return page.pages;
    };
    const { target, title } = read;
    switch (target.kind) {
      case 'url': {
        const name = title === '' ? target.href : title;
        into.push({ kind: 'link', title: name, slug: slugOf(name), href: target.href });
        if (entry.children.length > 0) warn('SUMMARY_ENTRY_UNCLEAR', entry.line);
        lift();
        return;
      }
      case 'none': {
        if (target.anchorOnly) warn('SUMMARY_ENTRY_UNCLEAR', entry.line);
        if (title === '') {
          warn('SUMMARY_ENTRY_UNCLEAR', entry.line);
          lift();
          return;
        }
        const placeholder: TreePage = { kind: 'placeholder', title, slug: slugOf(title), pages: [] };
        into.push(placeholder);
        nest(placeholder);
        return;
      }
      case 'outside': {
        warn('SUMMARY_MISSING_FILE', entry.line);
        lift();
        return;
      }
      default: {
        const path = pageOf(target, entry.line);
        if (path === undefined) {
          lift();
          return;
        }
        if (placed.has(path)) {
          warn('SUMMARY_DUPLICATE', entry.line);
          lift();
          return;
        }
        if (path === layout.readme && !isFirst) {
          // The readme is the first page wherever the summary lists it: only the first entry names it.
          warn('SUMMARY_ENTRY_UNCLEAR', entry.line);
          lift();
          return;
        }
        const page = document(path, title);
        placed.set(path, page);
        into.push(page);
        nest(page);
      }
    }
  };

  const top: TreePage[] = [];
  let group: { pages: TreePage[] } | undefined;
  for (const line of summaryLines(text)) {
    if (line.kind === 'entry') {
      place(line, group?.pages ?? top);
    } else if (line.kind === 'break') {
      group = undefined;
    } else {
      // Every heading ends the group above; `#` titles the summary and `##` with no text starts none.
      group = undefined;
      if (line.level === 1) continue;
      if (line.title === '') {
        warn('SUMMARY_ENTRY_UNCLEAR', line.line);
        continue;
      }
      const started: TreePage = { kind: 'group', title: line.title, slug: slugOf(line.title), pages: [] };
      top.push(started);
      group = started;
    }
  }
  return top;
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
