// Reads a docs folder (path to bytes, from git or a zip) into a DocsTree. The rules below are the
// documented normalisation of the content format (docs/folder-format.md gives them with examples);
// tree-to-folder writes the same rules back.
//
// 1. Paths go through safeRelativePath; two that normalise alike are a CONTENT_INVALID error. Two
//    that differ only in letter case (`Info.png`, `info.png`) are both kept, with a PATH_CASE_CLASH
//    warning per pair.
// 2. `*.md` files (any case of `.md`) other than the summary are markdown pages when the outline
//    (rules 3 to 5) makes them pages; a page must be UTF-8 (CONTENT_INVALID otherwise, as the service
//    cannot read it either). Every other file is a DocsFile, its content type from its extension
//    (octet-stream if unknown). Markdown that is not a page is neither.
// 3. The root `README.md` (`options.readme`) is the first page. Listed in the summary as its first
//    entry, it takes that entry's title and children; listed anywhere else, the entry is read past
//    with a SUMMARY_ENTRY_UNCLEAR warning.
// 4. The optional `SUMMARY.md` (`options.summary`) orders, nests, groups and titles pages with a
//    markdown list, an entry indented deeper than the one above being its child (read-outline.ts).
//    `## Heading` starts a group of the top-level entries below it, until the next heading or a
//    `---`; an entry without a link is a placeholder page, one with a URL a link page, one to a folder
//    its readme. A line that cannot be read as written is read past with a warning naming it: a page
//    listed twice, a missing or non-markdown file, a folder with no readme, a link leaving the root.
// 5. Pages the summary does not list are not pages (`unlisted: 'skip'`, the default and the service's
//    rule), each with a PAGE_UNLISTED warning; with `unlisted: 'append'`, and for every page when there
//    is no summary, they follow the listed ones in path order (UTF-16 code units, so no locale changes
//    it), each under the README of the nearest folder above it that has one (`guides/a/b.md` under
//    `guides/a/README.md`, else `guides/README.md`), after that page's listed children; the root
//    README adopts none.
// 6. Title: the summary's link text when not empty, else the first level-1 ATX heading outside code
//    (`# Install`, escapes resolved), else the file name without `.md` (a README: its folder's name;
//    the root README: `README`). Whitespace runs in titles become one space. Groups, placeholders
//    and links take their summary text (a link with none, its address).
// 7. Slug: the file name without `.md` (a folder README: the folder's name), lower-cased, each run
//    of characters other than letters and digits turned into one `-`, `page` if nothing is left.
//    Groups, placeholders and links: the same from their title.
import { codeBlockLines } from './code-block-lines.js';
import { ContentError } from './content-error.js';
import type { ContentWarning } from './content-warning.js';
import type { OutlineEntry, OutlineOptions } from './docs-outline.js';
import type { DocsDocument, DocsFile, DocsPage, DocsTree } from './docs-tree.js';
import { readOutline } from './read-outline.js';
import { safeRelativePath } from './safe-relative-path.js';

/** The options of folderToTree before page kinds: kept as a name for its callers. */
export type FolderLayout = OutlineOptions;

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
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The tree of the folder; what it read past is dropped (readFolder returns it). */
export function folderToTree(entries: ReadonlyMap<string, Buffer>, options: OutlineOptions = {}): DocsTree {
  return readFolder(entries, options).tree;
}

/** The tree of the folder, and the warnings of the outline (read-outline.ts) in its order. */
export function readFolder(
  entries: ReadonlyMap<string, Buffer>,
  options: OutlineOptions = {},
): { tree: DocsTree; warnings: ContentWarning[] } {
  const readmeName = options.readme ?? 'README.md';
  const summaryPath = safeRelativePath(options.summary ?? 'SUMMARY.md');
  const contents = new Map<string, Buffer>();
  for (const [raw, data] of entries) {
    const path = safeRelativePath(raw);
    if (contents.has(path)) {
      throw new ContentError('CONTENT_INVALID', `the folder holds ${path} twice`, { path });
    }
    contents.set(path, data);
  }
  const summary = contents.get(summaryPath);
  const outline = readOutline(
    contents.keys(),
    summary === undefined ? undefined : decodeUtf8(summaryPath, summary),
    options,
  );

  const toPage = (entry: OutlineEntry): DocsPage => {
    switch (entry.kind) {
      case 'document': {
        const page = readPage(
          entry.path,
          decodeUtf8(entry.path, contents.get(entry.path) ?? Buffer.alloc(0)),
          readmeName,
        );
        if (entry.title !== '') page.title = entry.title;
        page.pages = entry.pages.map(toPage);
        return page;
      }
      case 'group':
        return {
          kind: 'group',
          title: entry.title,
          slug: slugOf(entry.title),
          pages: entry.pages.map(toPage),
        };
      case 'placeholder':
        return {
          kind: 'placeholder',
          title: entry.title,
          slug: slugOf(entry.title),
          pages: entry.pages.map(toPage),
        };
      case 'link': {
        const title = entry.title === '' ? entry.href : entry.title;
        return { kind: 'link', title, slug: slugOf(title), href: entry.href };
      }
    }
  };
  const files = [...contents]
    .filter(([path]) => path !== summaryPath && !MARKDOWN.test(path))
    .map(([path, data]) => toFile(path, data))
    .sort((a, b) => byCodeUnits(a.path, b.path));
  return { tree: { pages: outline.pages.map(toPage), files }, warnings: outline.warnings };
}

function readPage(path: string, markdown: string, readmeName: string): DocsDocument {
  const baseName = baseNameOf(path, readmeName);
  return { path, title: firstHeading(markdown) ?? baseName, slug: slugOf(baseName), markdown, pages: [] };
}

/**
 * The title a page gives itself when no summary entry titles it (rule 6): its first heading
 * (`firstHeading` of its markdown), else its file name (a README: its folder's name).
 */
export function documentTitle(path: string, heading: string | undefined, readmeName: string): string {
  return heading ?? baseNameOf(path, readmeName);
}

/** The file name without `.md`; for a folder's README, the folder's name. */
function baseNameOf(path: string, readmeName: string): string {
  const segments = path.split('/');
  const fileName = segments.at(-1) ?? path;
  const folderName = segments.at(-2);
  return fileName === readmeName && folderName !== undefined ? folderName : fileName.replace(MARKDOWN, '');
}

/**
 * The first level-1 ATX heading outside code, escapes resolved, whitespace runs made one space, as
 * its UTF-8 bytes read back (a lone surrogate of the text is U+FFFD there).
 */
export function firstHeading(markdown: string): string | undefined {
  // A byte order mark before a first-line heading does not hide it.
  const lines = markdown.replace(/^\uFEFF/, '').split('\n');
  const code = codeBlockLines(lines);
  for (const [index, line] of lines.entries()) {
    if (code[index]) continue;
    const text = HEADING.exec(line.replace(/\r$/, ''))?.[1];
    const title = text?.replace(ESCAPED_PUNCTUATION, '$1').replace(/\s+/g, ' ').trim();
    if (title) return title.replace(LONE_SURROGATE, '\uFFFD');
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
