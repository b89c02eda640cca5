// Writes a DocsTree back as a docs folder (path to bytes), the inverse of folderToTree: the export
// from a space to git, and the way tests build folders. Documents are files; groups, links and
// placeholders exist only as SUMMARY.md lines (a heading, a link to an address, an item without a
// link).
//
// The summary. Over a folder that has one (`options.current`, the export), git's SUMMARY.md is kept
// byte for byte when the space has the structure it gives, and otherwise edited line by line
// (rewriteSummary: only the entries that changed, in the file's own style); if an edit would not
// read back as the space's structure, the summary is written anew in the file's style, its title
// kept. Without one, a SUMMARY.md is written only when the folder would read back as a different
// tree without it (page order or nesting other than rule 5 of folder-to-tree, a title other than the
// page's first heading or file name, or any group, link or placeholder). Most hand-kept folders then
// need none, and a summary never repeats what the files already say. A new one lists every page,
// the readme first (see renderSummary):
//
//     # Summary
//
//     * [Title](README.md)
//     * [Guides](guides/README.md)
//       * [Install](guides/install.md)
//
// two spaces of indent per level, `\`, `[` and `]` escaped in titles, and `%`, whitespace and
// `()<>#?[]"'\` percent-encoded in paths, which are relative to the summary's folder.
//
// Round trips. A tree in normal form comes back from folderToTree(treeToFolder(tree)) with the same
// pages (kind, path, title, order, nesting, markdown, link address) and files (path, name, content
// type, bytes); ids are not kept and slugs are derived. Normal form for a tree: paths as
// safeRelativePath returns them, documents ending in `.md` and files not, all distinct; the readme,
// if any, the first entry (at the top level, or first in the first group); groups at the top level
// only, links to addresses with a scheme (`https:`, `mailto:`); titles on one line
// without runs of whitespace at either end or inside, and not empty (others are written collapsed,
// an empty document title as the page's heading or file name); file names and content types as
// folderToTree derives them; files in path order.
//
// A folder in normal form comes back byte for byte from treeToFolder(folderToTree(folder)). Normal
// form for a folder: paths as safeRelativePath returns them, markdown files in UTF-8, and either no
// summary or exactly the summary this module would write for it. Over git's folder (`current`), a
// folder whose space did not change comes back byte for byte whatever its summary looks like.
import { ContentError } from './content-error.js';
import type { OutlineEntry, OutlineOptions } from './docs-outline.js';
import { childPages, type DocsPage, type DocsTree, isDocument } from './docs-tree.js';
import type { FolderBytes } from './folder-bytes.js';
import { documentTitle, firstHeading } from './folder-to-tree.js';
import { readOutline } from './read-outline.js';
import { DEFAULT_SUMMARY_HEAD, renderSummary } from './render-summary.js';
import { rewriteSummary } from './rewrite-summary.js';
import { safeRelativePath } from './safe-relative-path.js';
import { detectStyle, GROUP_HEADING, LIST_ITEM } from './summary-style.js';
import { sameStructure, type TocEntry, tocEntries } from './toc-entry.js';

/** Git's docs folder as it is, when the tree is written over it (the export). */
export interface CurrentFolder {
  /** Git's summary, byte for byte; undefined when the folder has none. */
  summary: Buffer | undefined;
  /** What readOutline gives for git's folder now, under the same options. */
  outline: readonly OutlineEntry[];
  /**
   * Paths of git's docs root that the service reads but the export leaves as they are (pages the
   * summary does not list, under `unlisted: skip`): the new summary is read back with them.
   */
  staying: readonly string[];
}

export interface FolderWriteOptions extends OutlineOptions {
  current?: CurrentFolder;
}

/**
 * How a tree holds its pages' markdown (`M`) and its files' bytes (`D`): what each becomes in the
 * folder, and the first heading of a page's markdown (`firstHeading` of folder-to-tree.ts), which
 * titles a page the summary does not. The export's tree holds blobs of the git mirror
 * (export/stored-text.ts); every other tree holds text and Buffers (TEXT_CONTENT).
 */
export interface FolderContent<M, D> {
  markdownBytes(markdown: M): FolderBytes;
  heading(markdown: M): string | undefined;
  fileBytes(data: D): FolderBytes;
}

const TEXT_CONTENT: FolderContent<string, Buffer> = {
  markdownBytes: (markdown) => Buffer.from(markdown, 'utf8'),
  heading: firstHeading,
  fileBytes: (data) => data,
};

/** A page as the folder's files alone title and nest it, without a summary (rules 5 and 6). */
interface ImpliedPage {
  path: string;
  title: string;
  pages: ImpliedPage[];
}

const MARKDOWN = /\.md$/i;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function treeToFolder(tree: DocsTree, options?: FolderWriteOptions): Map<string, Buffer>;
export function treeToFolder<M, D>(
  tree: DocsTree<M, D>,
  options: FolderWriteOptions,
  content: FolderContent<M, D>,
): Map<string, FolderBytes>;
export function treeToFolder<M, D>(
  tree: DocsTree<M, D>,
  options: FolderWriteOptions = {},
  content: FolderContent<M, D> = TEXT_CONTENT as unknown as FolderContent<M, D>,
): Map<string, FolderBytes> {
  const readmeName = options.readme ?? 'README.md';
  const summaryPath = safeRelativePath(options.summary ?? 'SUMMARY.md');
  const layout = { readme: readmeName, summary: summaryPath };
  const entries = new Map<string, FolderBytes>();
  const claim = (raw: string, what: string): string => {
    const path = safeRelativePath(raw, { subject: what, root: 'docs folder' });
    if (entries.has(path) || path === summaryPath) {
      throw new ContentError('CONTENT_INVALID', `${what} ${path} clashes with another file of the folder`, {
        path,
      });
    }
    return path;
  };

  // The readme can only be the first entry of the summary (a group heading aside).
  const firstEntry = firstNonGroup(tree.pages);
  /** Each page written, by path: its markdown, for the title it gives itself. */
  const written = new Map<string, M>();
  // `place`: at the top level, directly in a group (still the top of the list), or below a page.
  const visit = (pages: readonly DocsPage<M>[], place: 'top' | 'group' | 'nested'): DocsPage<M>[] =>
    pages.map((page): DocsPage<M> => {
      if (!isDocument(page)) {
        if (page.kind === 'group' && place !== 'top') {
          throw new ContentError('CONTENT_INVALID', `group "${page.title}" can only be at the top level`);
        }
        if (page.kind === 'link') return page;
        return { ...page, pages: visit(childPages(page), page.kind === 'group' ? 'group' : 'nested') };
      }
      const path = claim(page.path, 'page');
      if (!MARKDOWN.test(path)) {
        throw new ContentError('CONTENT_INVALID', `page ${path} must be a .md file`, { path });
      }
      if (path === readmeName && page !== firstEntry) {
        throw new ContentError(
          'CONTENT_INVALID',
          `page ${path} can only be the first top-level page: move it back to the top of the space`,
          { path },
        );
      }
      entries.set(path, content.markdownBytes(page.markdown));
      written.set(path, page.markdown);
      return { ...page, path, pages: visit(page.pages, 'nested') };
    });
  const pages = visit(tree.pages, 'top');
  for (const file of tree.files) {
    const path = claim(file.path, 'file');
    if (MARKDOWN.test(path)) {
      throw new ContentError('CONTENT_INVALID', `file ${path} would read back as a page`, { path });
    }
    entries.set(path, content.fileBytes(file.data));
  }
  refuseFileFolderClashes(entries.keys());

  // What the pages say of themselves without a summary: their titles (first heading, else file
  // name), and without a summary in git the tree rule 5 gives. Over git's summary only the titles
  // of entries without one are needed, when asked.
  const current = options.current;
  const titles = new Map<string, string>();
  const impliedTitle = (path: string): string | undefined => {
    let title = titles.get(path);
    if (title === undefined) {
      const markdown = written.get(path);
      if (markdown === undefined) return undefined;
      title = documentTitle(path, content.heading(markdown), readmeName);
      titles.set(path, title);
    }
    return title;
  };
  const space = tocEntries(pages, impliedTitle);
  const summary =
    current?.summary === undefined
      ? newSummary(space, impliedPages(written.keys(), layout, impliedTitle), summaryPath)
      : editedSummary(current, space, [...entries.keys()], summaryPath, impliedTitle, options);
  if (summary !== undefined) entries.set(summaryPath, summary);

  return new Map([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The pages as the folder's files alone give them (folderToTree of the written pages, without a
 * summary): nested and ordered by rule 5, each titled by itself.
 */
function impliedPages(
  paths: Iterable<string>,
  layout: OutlineOptions,
  title: (path: string) => string | undefined,
): ImpliedPage[] {
  const toPage = (entry: OutlineEntry): ImpliedPage[] =>
    entry.kind === 'document'
      ? [
          {
            path: entry.path,
            title: entry.title !== '' ? entry.title : (title(entry.path) ?? ''),
            pages: entry.pages.flatMap(toPage),
          },
        ]
      : [];
  return readOutline(paths, undefined, layout).pages.flatMap(toPage);
}

/** Without a summary in git: one only when the files alone would read back differently. */
function newSummary(
  space: readonly TocEntry[],
  impliedPages: readonly ImpliedPage[],
  summaryPath: string,
): Buffer | undefined {
  if (sameAsImplied(space, impliedPages)) return undefined;
  return Buffer.from(renderSummary(space, summaryPath), 'utf8');
}

/** Git's summary, kept, edited line by line, or written anew in its style, whichever reads back right. */
function editedSummary(
  current: CurrentFolder,
  space: readonly TocEntry[],
  writtenPaths: readonly string[],
  summaryPath: string,
  implied: (path: string) => string | undefined,
  options: OutlineOptions,
): Buffer {
  const bytes = current.summary ?? Buffer.alloc(0);
  if (sameStructure(space, current.outline, implied)) return bytes;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (error) {
    throw new ContentError('CONTENT_INVALID', `${summaryPath} is not valid UTF-8 text`, {
      path: summaryPath,
      cause: error,
    });
  }
  const paths = [...new Set([...current.staying, ...writtenPaths])];
  const readsBack = (candidate: string) =>
    sameStructure(space, readOutline(paths, candidate, options).pages, implied);
  const style = detectStyle(text);
  const edited = rewriteSummary({
    text,
    current: current.outline,
    space,
    implied,
    summaryPath,
    style,
  });
  if (readsBack(edited)) return Buffer.from(edited, 'utf8');
  const whole = renderSummary(space, summaryPath, style, headOf(text));
  if (readsBack(whole)) return Buffer.from(whole, 'utf8');
  throw new ContentError(
    'CONTENT_INVALID',
    `the space's page order cannot be written as ${summaryPath}: a summary written for it reads back as another order; check the order of the first pages and groups in the space`,
    { path: summaryPath },
  );
}

/** The lines before a summary's first entry or group heading: its title, kept in a new summary. */
function headOf(text: string): string[] {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const first = lines.findIndex((line) => LIST_ITEM.test(line) || GROUP_HEADING.test(line));
  const head = first === -1 ? lines : lines.slice(0, first);
  while (head.length > 0 && head.at(-1)?.trim() === '') head.pop();
  return head.length === 0 ? [...DEFAULT_SUMMARY_HEAD] : [...head, ''];
}

function sameAsImplied(space: readonly TocEntry[], pages: readonly ImpliedPage[]): boolean {
  return (
    space.length === pages.length &&
    space.every((entry, index) => {
      const page = pages[index];
      return (
        page !== undefined &&
        entry.kind === 'document' &&
        entry.path === page.path &&
        entry.title === page.title &&
        sameAsImplied(entry.pages, page.pages)
      );
    })
  );
}

function firstNonGroup<M>(pages: readonly DocsPage<M>[]): DocsPage<M> | undefined {
  const first = pages[0];
  return first?.kind === 'group' ? (first.pages[0] ?? firstNonGroup(pages.slice(1))) : first;
}

/** A folder cannot hold `guides` as a file and `guides/a.md` too: no file system could write it. */
function refuseFileFolderClashes(paths: Iterable<string>): void {
  const all = new Set(paths);
  for (const path of all) {
    const segments = path.split('/');
    for (let depth = 1; depth < segments.length; depth += 1) {
      const folder = segments.slice(0, depth).join('/');
      if (all.has(folder)) {
        throw new ContentError('CONTENT_INVALID', `${folder} is both a file and a folder`, { path: folder });
      }
    }
  }
}
