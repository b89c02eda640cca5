// Writes a DocsTree back as a docs folder (path to bytes), the inverse of folderToTree: the export
// from a space to git, and the way tests build folders.
//
// A SUMMARY.md is written only when the folder would read back as a different tree without it (page
// order or nesting other than rule 5 of folder-to-tree, or a title other than the page's first
// heading or file name). Most hand-kept folders then need none, and a summary never repeats what
// the files already say. When written, it lists every page, README first:
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
// pages (path, title, order, nesting, markdown) and files (path, name, content type, bytes); ids are
// not kept and slugs are derived. Normal form for a tree: paths as safeRelativePath returns them,
// pages ending in `.md` and files not, all distinct; the root README, if any, first at the top
// level; titles on one line without runs of whitespace at either end or inside, and not empty (others
// are written collapsed, an empty one as the page's heading or file name); file names and content
// types as folderToTree derives them; files in path order.
//
// A folder in normal form comes back byte for byte from treeToFolder(folderToTree(folder)). Normal
// form for a folder: paths as safeRelativePath returns them, markdown files in UTF-8, and either no
// summary or exactly the summary this module would write for it (so group headings, other list
// styles and a summary that changes nothing are normalised away).
import { ContentError } from './content-error.js';
import type { DocsPage, DocsTree } from './docs-tree.js';
import { type FolderLayout, folderToTree } from './folder-to-tree.js';
import { safeRelativePath } from './safe-relative-path.js';

interface OutlineItem {
  path: string;
  title: string;
  pages: OutlineItem[];
}

const MARKDOWN = /\.md$/i;
const PATH_CHARACTERS_TO_ENCODE = /[%\s()<>#?[\]"'\\]/gu;

export function treeToFolder(tree: DocsTree, options: FolderLayout = {}): Map<string, Buffer> {
  const readmeName = options.readme ?? 'README.md';
  const summaryPath = safeRelativePath(options.summary ?? 'SUMMARY.md');
  const entries = new Map<string, Buffer>();
  const claim = (raw: string, what: string): string => {
    const path = safeRelativePath(raw, { subject: what, root: 'docs folder' });
    if (entries.has(path) || path === summaryPath) {
      throw new ContentError('CONTENT_INVALID', `${what} ${path} clashes with another file of the folder`, {
        path,
      });
    }
    return path;
  };

  const pagePaths = new Map<DocsPage, string>();
  const visit = (pages: readonly DocsPage[]): void => {
    for (const page of pages) {
      const path = claim(page.path, 'page');
      if (!MARKDOWN.test(path)) {
        throw new ContentError('CONTENT_INVALID', `page ${path} must be a .md file`, { path });
      }
      if (path === readmeName && page !== tree.pages[0]) {
        throw new ContentError('CONTENT_INVALID', `page ${path} can only be the first top-level page`, {
          path,
        });
      }
      pagePaths.set(page, path);
      entries.set(path, Buffer.from(page.markdown, 'utf8'));
      visit(page.pages);
    }
  };
  visit(tree.pages);
  for (const file of tree.files) {
    const path = claim(file.path, 'file');
    if (MARKDOWN.test(path)) {
      throw new ContentError('CONTENT_INVALID', `file ${path} would read back as a page`, { path });
    }
    entries.set(path, file.data);
  }
  refuseFileFolderClashes(entries.keys());

  // What the files say without a summary: read back, it decides whether one is needed.
  const implied = folderToTree(entries, options);
  const impliedTitles = new Map<string, string>();
  const collectTitles = (pages: readonly DocsPage[]): void => {
    for (const page of pages) {
      impliedTitles.set(page.path, page.title);
      collectTitles(page.pages);
    }
  };
  collectTitles(implied.pages);

  const toOutline = (pages: readonly DocsPage[]): OutlineItem[] =>
    pages.map((page) => {
      const path = pagePaths.get(page) ?? page.path;
      const title = page.title.replace(/\s+/g, ' ').trim() || (impliedTitles.get(path) ?? path);
      return { path, title, pages: toOutline(page.pages) };
    });
  const outline = toOutline(tree.pages);
  if (!sameOutline(outline, implied.pages)) entries.set(summaryPath, renderSummary(outline, summaryPath));

  return new Map([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function sameOutline(outline: readonly OutlineItem[], pages: readonly DocsPage[]): boolean {
  return (
    outline.length === pages.length &&
    outline.every((item, index) => {
      const page = pages[index];
      return (
        page !== undefined &&
        item.path === page.path &&
        item.title === page.title &&
        sameOutline(item.pages, page.pages)
      );
    })
  );
}

function renderSummary(outline: readonly OutlineItem[], summaryPath: string): Buffer {
  const folder = summaryPath.split('/').slice(0, -1);
  const lines = ['# Summary', ''];
  const write = (items: readonly OutlineItem[], depth: number): void => {
    for (const item of items) {
      const title = item.title.replace(/[\\[\]]/g, '\\$&');
      const href = relativePath(folder, item.path).replace(PATH_CHARACTERS_TO_ENCODE, percentEncoded);
      lines.push(`${'  '.repeat(depth)}* [${title}](${href})`);
      write(item.pages, depth + 1);
    }
  };
  write(outline, 0);
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

/** `path` as seen from the folder whose segments are `from`: `../guides/a.md`. */
function relativePath(from: readonly string[], path: string): string {
  const segments = path.split('/');
  let shared = 0;
  while (shared < from.length && shared < segments.length - 1 && from[shared] === segments[shared])
    shared += 1;
  return [...from.slice(shared).map(() => '..'), ...segments.slice(shared)].join('/');
}

function percentEncoded(char: string): string {
  return [...Buffer.from(char, 'utf8')]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
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
