// Reads a docs folder (path to bytes, from git or a zip) into a DocsTree. The rules below are the
// documented normalisation of the content format; tree-to-folder writes the same rules back.
//
// 1. Paths go through safeRelativePath; two that normalise alike are a CONTENT_INVALID error.
// 2. Every `*.md` file (any case of `.md`) is a page, except the summary; it must be UTF-8.
//    Everything else is a DocsFile, its content type from its extension (octet-stream if unknown).
// 3. The root `README.md` (`options.readme`) is the first page. It may be listed in the summary only
//    as its first top-level item, which can give it a title and children.
// 4. The optional `SUMMARY.md` (`options.summary`) orders, nests and titles pages with a markdown
//    list of links, an item indented deeper than the one above being its child. Links resolve
//    against the summary's folder. Headings (`## Group`) and other text are read past: groups are not
//    part of the tree. A list item that is not one link, a link to a missing or non-markdown file,
//    and a page listed twice are CONTENT_INVALID errors naming the line.
// 5. Pages the summary does not list (all of them without a summary) follow the listed ones, in
//    path order (UTF-16 code units, so no locale changes it). Each goes under the README of the
//    nearest folder above it that has one (`guides/a/b.md` under `guides/a/README.md`, else
//    `guides/README.md`), appended after that page's listed children; the root README adopts none.
// 6. Title: the summary's link text when not empty, else the first level-1 ATX heading outside code
//    (`# Install`, escapes resolved), else the file name without `.md` (a README: its folder's name;
//    the root README: `README`). Whitespace runs in titles become one space.
// 7. Slug: the file name without `.md` (a folder README: the folder's name), lower-cased, each run
//    of characters other than letters and digits turned into one `-`, `page` if nothing is left.
import { codeBlockLines } from './code-block-lines.js';
import { ContentError } from './content-error.js';
import type { DocsFile, DocsPage, DocsTree } from './docs-tree.js';
import { parseSummary, type SummaryItem } from './parse-summary.js';
import { safeRelativePath } from './safe-relative-path.js';

/** Names of the two files with a meaning in a docs folder. */
export interface FolderLayout {
  /** File name of a folder's main page; at the root, the first page. Default `README.md`. */
  readme?: string;
  /** Path of the summary from the folder's root. Default `SUMMARY.md`. */
  summary?: string;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/vnd.microsoft.icon',
  pdf: 'application/pdf',
  zip: 'application/zip',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  txt: 'text/plain',
  csv: 'text/csv',
  html: 'text/html',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
};
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
const MARKDOWN = /\.md$/i;
const HEADING = /^ {0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const ESCAPED_PUNCTUATION = /\\([!-/:-@[-`{-~])/g;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function folderToTree(entries: ReadonlyMap<string, Buffer>, options: FolderLayout = {}): DocsTree {
  const readmeName = options.readme ?? 'README.md';
  if (readmeName.includes('/') || !MARKDOWN.test(readmeName)) {
    throw new ContentError('CONTENT_INVALID', `readme ${readmeName} must be a markdown file name`);
  }
  const summaryPath = safeRelativePath(options.summary ?? 'SUMMARY.md');
  const pages = new Map<string, DocsPage>();
  const files: DocsFile[] = [];
  let summaryText: string | undefined;
  const seen = new Set<string>();

  for (const [raw, data] of entries) {
    const path = safeRelativePath(raw);
    if (seen.has(path)) throw new ContentError('CONTENT_INVALID', `the folder holds ${path} twice`, { path });
    seen.add(path);
    if (path === summaryPath) summaryText = decodeUtf8(path, data);
    else if (MARKDOWN.test(path)) pages.set(path, readPage(path, decodeUtf8(path, data), readmeName));
    else files.push(toFile(path, data));
  }

  const top: DocsPage[] = [];
  const listed = new Set<string>();
  const listItems = (items: readonly SummaryItem[], into: DocsPage[]): void => {
    for (const item of items) {
      const invalid = (reason: string) =>
        new ContentError('CONTENT_INVALID', `${summaryPath}:${item.line}: ${item.path} ${reason}`, {
          path: item.path,
        });
      const page = pages.get(item.path);
      if (page === undefined) {
        throw invalid(seen.has(item.path) ? 'is not a markdown page' : 'is not in the folder');
      }
      if (listed.has(item.path)) throw invalid('is listed twice');
      if (item.path === readmeName && !(into === top && top.length === 0)) {
        throw invalid('is the first page and can only be the first item');
      }
      listed.add(item.path);
      if (item.title !== '') page.title = item.title;
      into.push(page);
      listItems(item.children, page.pages);
    }
  };
  if (summaryText !== undefined) listItems(parseSummary(summaryText, summaryPath), top);

  const readme = pages.get(readmeName);
  if (readme !== undefined && !listed.has(readmeName)) top.unshift(readme);
  const unlisted = [...pages.keys()]
    .filter((path) => !listed.has(path) && path !== readmeName)
    .sort(byCodeUnits);
  for (const path of unlisted) {
    const page = pages.get(path);
    if (page === undefined) continue;
    const parent = folderReadmeAbove(path, readmeName, pages);
    (parent?.pages ?? top).push(page);
  }
  return { pages: top, files: files.sort((a, b) => byCodeUnits(a.path, b.path)) };
}

function readPage(path: string, markdown: string, readmeName: string): DocsPage {
  const segments = path.split('/');
  const fileName = segments.at(-1) ?? path;
  const folderName = segments.at(-2);
  const baseName =
    fileName === readmeName && folderName !== undefined ? folderName : fileName.replace(MARKDOWN, '');
  return { path, title: firstHeading(markdown) ?? baseName, slug: slugOf(baseName), markdown, pages: [] };
}

/** The page that adopts an unlisted page: the README of the nearest folder above it, not the root's. */
function folderReadmeAbove(
  path: string,
  readmeName: string,
  pages: ReadonlyMap<string, DocsPage>,
): DocsPage | undefined {
  const folders = path.split('/').slice(0, -1);
  // A folder's own README looks one folder further up: it cannot adopt itself.
  if (path.endsWith(`/${readmeName}`)) folders.pop();
  for (let depth = folders.length; depth > 0; depth -= 1) {
    const readme = pages.get(`${folders.slice(0, depth).join('/')}/${readmeName}`);
    if (readme !== undefined) return readme;
  }
  return undefined;
}

function firstHeading(markdown: string): string | undefined {
  const lines = markdown.split('\n');
  const code = codeBlockLines(lines);
  for (const [index, line] of lines.entries()) {
    if (code[index]) continue;
    const text = HEADING.exec(line.replace(/\r$/, ''))?.[1];
    const title = text?.replace(ESCAPED_PUNCTUATION, '$1').replace(/\s+/g, ' ').trim();
    if (title) return title;
  }
  return undefined;
}

function slugOf(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');
  return slug === '' ? 'page' : slug;
}

function toFile(path: string, data: Buffer): DocsFile {
  const name = path.split('/').at(-1) ?? path;
  const extension = name.includes('.') ? (name.split('.').at(-1) ?? '').toLowerCase() : '';
  return { path, name, contentType: CONTENT_TYPES[extension] ?? DEFAULT_CONTENT_TYPE, data };
}

function decodeUtf8(path: string, data: Buffer): string {
  try {
    return utf8.decode(data);
  } catch (error) {
    throw new ContentError('CONTENT_INVALID', `${path} is not valid UTF-8 text`, { path, cause: error });
  }
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
