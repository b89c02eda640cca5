// The structure of a docs folder from its file list and SUMMARY.md alone: which markdown files are
// pages, in which order, nested and grouped how, and a warning for every summary line read past
// rather than refused. The rules are docs/folder-format.md; the contract is docs-outline.ts. Pure.
import { caseClashes } from './case-clashes.js';
import { ContentError } from './content-error.js';
import type { ContentWarning, ContentWarningCode } from './content-warning.js';
import type { OutlineEntry, OutlineOptions } from './docs-outline.js';
import { parseSummary, type SummaryEntry } from './parse-summary.js';
import { safeRelativePath } from './safe-relative-path.js';

export interface Outline {
  pages: OutlineEntry[];
  /** Summary lines read past (in line order), then unlisted pages, then case clashes (in path order). */
  warnings: ContentWarning[];
}

type DocumentEntry = Extract<OutlineEntry, { kind: 'document' }>;
type GroupEntry = Extract<OutlineEntry, { kind: 'group' }>;

const MARKDOWN = /\.md$/i;
const STANDARD_README = 'README.md';
const READ_PAST = 'the entry is read past and the entries under it take its place';

/**
 * The outline of the folder holding `paths` (normalised, relative to the docs root), ordered by
 * `summaryText` when there is a summary; without one, every markdown file is a page (rule 5 of
 * folder-to-tree). A readme option that is not a markdown file name is a CONTENT_INVALID error; a
 * summary link with a control character is PATH_UNSAFE (see parseSummary). Nothing else throws.
 */
export function readOutline(
  paths: Iterable<string>,
  summaryText: string | undefined,
  options: OutlineOptions = {},
): Outline {
  const readme = options.readme ?? STANDARD_README;
  if (readme.includes('/') || !MARKDOWN.test(readme)) {
    throw new ContentError('CONTENT_INVALID', `readme ${readme} must be a markdown file name`);
  }
  const summaryPath = safeRelativePath(options.summary ?? 'SUMMARY.md');
  const files = new Set(paths);
  const markdown = [...files].filter((path) => MARKDOWN.test(path) && path !== summaryPath).sort(byCodeUnits);
  const warnings: ContentWarning[] = [];

  const listed =
    summaryText === undefined
      ? { pages: [], placed: new Map<string, DocumentEntry>() }
      : readSummary(summaryText, { files, readme, summaryPath, warnings });
  const pages = listed.pages;
  const placed = listed.placed;
  // The readme is the first page whatever the summary says.
  if (files.has(readme) && !placed.has(readme)) {
    const first: DocumentEntry = { kind: 'document', path: readme, title: '', pages: [] };
    pages.unshift(first);
    placed.set(readme, first);
  }
  const unlisted = markdown.filter((path) => !placed.has(path));
  if (summaryText !== undefined && (options.unlisted ?? 'skip') === 'skip') {
    for (const path of unlisted) {
      warnings.push({
        code: 'PAGE_UNLISTED',
        file: path,
        message: `${path} is not listed in ${summaryPath}, so it is not a page (the service reads only listed pages); list it to publish it`,
      });
    }
  } else {
    appendUnlisted(pages, placed, unlisted, readme);
  }
  warnings.push(...caseClashes(files));
  return { pages, warnings };
}

interface SummaryContext {
  files: ReadonlySet<string>;
  readme: string;
  summaryPath: string;
  warnings: ContentWarning[];
}

/**
 * What placing the summary's entries reads and builds: the folder's paths, the warnings, the
 * documents placed so far by path, and whether an entry was placed yet (the readme may only be first).
 */
interface SummaryReader extends SummaryContext {
  folders: ReadonlySet<string>;
  byFoldedPath: ReadonlyMap<string, string>;
  placed: Map<string, DocumentEntry>;
  progress: { first: boolean };
}

function warnAt(reader: SummaryReader, code: ContentWarningCode, line: number, message: string): void {
  reader.warnings.push({ code, file: reader.summaryPath, line, message });
}

/** The pages the summary lists, and the documents placed, by path. */
function readSummary(
  text: string,
  context: SummaryContext,
): { pages: OutlineEntry[]; placed: Map<string, DocumentEntry> } {
  const reader: SummaryReader = {
    ...context,
    folders: foldersOf(context.files),
    byFoldedPath: new Map([...context.files].map((path) => [path.toLowerCase(), path])),
    placed: new Map<string, DocumentEntry>(),
    progress: { first: true },
  };
  const top: OutlineEntry[] = [];
  let group: GroupEntry | undefined;
  for (const item of parseSummary(text, context.summaryPath)) {
    if (item.kind === 'heading') {
      // Any heading ends the group above; `#` is the summary's title and starts none.
      group = undefined;
      if (item.level === 1) continue;
      if (item.title === '') {
        warnAt(
          reader,
          'SUMMARY_ENTRY_UNCLEAR',
          item.line,
          'the heading has no text: it starts no group; give it a title',
        );
        continue;
      }
      group = { kind: 'group', title: item.title, line: item.line, pages: [] };
      top.push(group);
    } else if (item.kind === 'break') {
      group = undefined;
    } else if (item.kind === 'stray-link') {
      warnAt(
        reader,
        'SUMMARY_ENTRY_UNCLEAR',
        item.line,
        'a link outside the list is not an entry: it is read past; start the line with "* " to list it',
      );
    } else {
      place(reader, item, group?.pages ?? top);
    }
  }
  return { pages: top, placed: reader.placed };
}

/** The readme of `folder` ('' for the root), or undefined after a warning. */
function folderReadme(reader: SummaryReader, folder: string, entry: SummaryEntry): string | undefined {
  const { readme, files } = reader;
  const names = [...new Set([readme, STANDARD_README])];
  const found = names.map((name) => (folder === '' ? name : `${folder}/${name}`)).find((p) => files.has(p));
  if (found === undefined) {
    const [what, fix] = folder === '' ? ['the docs root', readme] : [`${folder}/`, `${folder}/${readme}`];
    warnAt(
      reader,
      'SUMMARY_FOLDER_LINK',
      entry.line,
      `${what} is a folder with no ${readme} of its own: ${READ_PAST}; link a page of the folder, or add ${fix}`,
    );
  }
  return found;
}

/** The markdown file an entry names, or undefined after a warning. */
function pageOf(
  reader: SummaryReader,
  entry: SummaryEntry & { kind: 'document' | 'folder' },
): string | undefined {
  const { files, folders, summaryPath } = reader;
  const { path } = entry;
  if (entry.kind === 'folder' ? path === '' || folders.has(path) : folders.has(path) && !files.has(path)) {
    return folderReadme(reader, path, entry);
  }
  const missing = (what: string, fix: string) =>
    warnAt(reader, 'SUMMARY_MISSING_FILE', entry.line, `${what}: ${READ_PAST}; ${fix}`);
  if (path === summaryPath) missing(`${path} is the summary itself`, 'link a page');
  else if (files.has(path) && !MARKDOWN.test(path))
    missing(`${path} is not a markdown page`, 'link a .md file');
  else if (files.has(path)) return path;
  else {
    const near =
      reader.byFoldedPath.get(path.toLowerCase()) ?? (files.has(`${path}.md`) ? `${path}.md` : undefined);
    const what = `${entry.kind === 'folder' ? `${path}/` : path} is not in the docs folder`;
    missing(what, near === undefined ? 'fix the link or add the file' : `did you mean ${near}?`);
  }
  return undefined;
}

/** Places the entries under `entry` into `into`: an entry read past, and its entries take its place. */
function lift(reader: SummaryReader, entry: SummaryEntry, into: OutlineEntry[]): void {
  for (const child of entry.children) place(reader, child, into);
}

/** Places one summary entry (and the entries under it) into `into`, warning of what it reads past. */
function place(reader: SummaryReader, entry: SummaryEntry, into: OutlineEntry[]): void {
  const isFirst = reader.progress.first;
  reader.progress.first = false;
  if (entry.unclear === 'several-links' || entry.unclear === 'text-around-link') {
    const what = entry.unclear === 'several-links' ? 'more than one link' : 'text beside its link';
    warnAt(
      reader,
      'SUMMARY_ENTRY_UNCLEAR',
      entry.line,
      `the entry has ${what}: only its first link is read; keep one link per entry`,
    );
  }
  switch (entry.kind) {
    case 'link': {
      into.push({ kind: 'link', title: entry.title, href: entry.href, line: entry.line });
      if (entry.children.length > 0) {
        warnAt(
          reader,
          'SUMMARY_ENTRY_UNCLEAR',
          entry.line,
          `the external link ${entry.href} cannot hold pages: the entries under it follow it instead; move them under a page`,
        );
      }
      lift(reader, entry, into);
      return;
    }
    case 'placeholder':
      placePlaceholder(reader, entry, into);
      return;
    case 'outside': {
      warnAt(
        reader,
        'SUMMARY_MISSING_FILE',
        entry.line,
        `${entry.reason}: ${READ_PAST}; link a page inside the docs folder`,
      );
      lift(reader, entry, into);
      return;
    }
    default:
      placeDocument(reader, entry, into, isFirst);
  }
}

function placePlaceholder(
  reader: SummaryReader,
  entry: SummaryEntry & { kind: 'placeholder' },
  into: OutlineEntry[],
): void {
  if (entry.unclear === 'anchor-only') {
    warnAt(
      reader,
      'SUMMARY_ENTRY_UNCLEAR',
      entry.line,
      'the entry links to an anchor, not to a page: it becomes an empty page; link a .md file instead',
    );
  }
  if (entry.title === '') {
    warnAt(
      reader,
      'SUMMARY_ENTRY_UNCLEAR',
      entry.line,
      `the entry is empty: ${READ_PAST}; give it a link or a title`,
    );
    lift(reader, entry, into);
    return;
  }
  const placeholder: OutlineEntry = { kind: 'placeholder', title: entry.title, line: entry.line, pages: [] };
  into.push(placeholder);
  lift(reader, entry, placeholder.pages);
}

/** A page or folder entry: its document placed once, else read past with a warning. */
function placeDocument(
  reader: SummaryReader,
  entry: SummaryEntry & { kind: 'document' | 'folder' },
  into: OutlineEntry[],
  isFirst: boolean,
): void {
  const { readme, placed } = reader;
  const path = pageOf(reader, entry);
  if (path === undefined) {
    lift(reader, entry, into);
    return;
  }
  const earlier = placed.get(path);
  if (earlier !== undefined) {
    const where = earlier.line === undefined ? '' : ` on line ${earlier.line}`;
    warnAt(
      reader,
      'SUMMARY_DUPLICATE',
      entry.line,
      `${path} is already listed${where}, and a page has one place: ${READ_PAST}; list each page once`,
    );
  } else if (path === readme && !isFirst) {
    warnAt(
      reader,
      'SUMMARY_ENTRY_UNCLEAR',
      entry.line,
      `${readme} is the first page and can only be the first entry: it stays first, and ${READ_PAST}; move it to the top`,
    );
  } else {
    const document: DocumentEntry = {
      kind: 'document',
      path,
      title: entry.title,
      line: entry.line,
      pages: [],
    };
    placed.set(path, document);
    into.push(document);
    lift(reader, entry, document.pages);
    return;
  }
  lift(reader, entry, into);
}

/**
 * Rule 5: `paths` after the placed pages, in path order, each under the readme of the nearest folder
 * above it (`guides/a/b.md` under `guides/a/README.md`, else `guides/README.md`), else at the top.
 */
function appendUnlisted(
  top: OutlineEntry[],
  placed: ReadonlyMap<string, DocumentEntry>,
  paths: readonly string[],
  readme: string,
): void {
  const pages = new Map(placed);
  for (const path of paths) pages.set(path, { kind: 'document', path, title: '', pages: [] });
  for (const path of paths) {
    const page = pages.get(path);
    if (page === undefined) continue;
    (folderReadmeAbove(path, readme, pages)?.pages ?? top).push(page);
  }
}

/** The page that adopts an unlisted page: the readme of the nearest folder above it, not the root's. */
function folderReadmeAbove(
  path: string,
  readme: string,
  pages: ReadonlyMap<string, DocumentEntry>,
): DocumentEntry | undefined {
  const folders = path.split('/').slice(0, -1);
  // A folder's own readme looks one folder further up: it cannot adopt itself.
  if (path.endsWith(`/${readme}`)) folders.pop();
  for (let depth = folders.length; depth > 0; depth -= 1) {
    const found = pages.get(`${folders.slice(0, depth).join('/')}/${readme}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Every folder that holds a file, at any depth: `a/b/c.md` gives `a` and `a/b`. */
function foldersOf(files: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const path of files) {
    const segments = path.split('/');
    for (let depth = 1; depth < segments.length; depth += 1) folders.add(segments.slice(0, depth).join('/'));
  }
  return folders;
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
