// How a page and a file of an imported folder are named (docs/folder-format.md, "Titles and slugs"):
// a document's own title from its first `# heading` or its file name, slugs from names, and a file's
// content type from its extension.
import { plainText } from './summary-lines.js';

const MARKDOWN_EXTENSION = /\.md$/i;
const HEADING = /^ {0,3}#(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  avif: 'image/avif',
  bmp: 'image/bmp',
  csv: 'text/csv',
  gif: 'image/gif',
  htm: 'text/html',
  html: 'text/html',
  ico: 'image/vnd.microsoft.icon',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  json: 'application/json',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  pdf: 'application/pdf',
  png: 'image/png',
  svg: 'image/svg+xml',
  txt: 'text/plain',
  webm: 'video/webm',
  webp: 'image/webp',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  zip: 'application/zip',
};
const UNKNOWN_CONTENT_TYPE = 'application/octet-stream';

export function isMarkdownPath(path: string): boolean {
  return MARKDOWN_EXTENSION.test(path);
}

/** The name a page of `path` goes by: its file name without `.md`, for a folder's readme the folder's. */
export function pageBaseName(path: string, readmeName: string): string {
  const slash = path.lastIndexOf('/');
  const fileName = path.slice(slash + 1);
  if (slash !== -1 && fileName === readmeName) {
    return path.slice(path.lastIndexOf('/', slash - 1) + 1, slash);
  }
  return fileName.replace(MARKDOWN_EXTENSION, '');
}

/** Lower case, each run of characters other than letters and digits one `-`; `page` if nothing is left. */
export function slugOf(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'page' : slug;
}

/**
 * The text of the first level-1 ATX heading outside fenced code, escapes resolved and whitespace
 * collapsed; undefined when there is none. Reads line by line and stops at the heading: a page's
 * title is almost always its first line.
 */
export function firstHeading(markdown: string): string | undefined {
  let fence: { char: string; length: number } | undefined;
  let start = markdown.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (start < markdown.length) {
    const newline = markdown.indexOf('\n', start);
    const end = newline === -1 ? markdown.length : newline;
    const line = markdown.slice(start, markdown[end - 1] === '\r' ? end - 1 : end);
    start = end + 1;
    if (fence !== undefined) {
      const closing = line.trim();
      if (closing.length >= fence.length && [...closing].every((char) => char === fence?.char))
        fence = undefined;
      continue;
    }
    const marker = FENCE.exec(line)?.[1];
    if (marker !== undefined) {
      fence = { char: marker.charAt(0), length: marker.length };
      continue;
    }
    if (!line.includes('#')) continue;
    const text = HEADING.exec(line)?.[1];
    const title = text === undefined ? '' : plainText(text);
    if (title !== '') return title;
  }
  return undefined;
}

export function contentTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot === -1) return UNKNOWN_CONTENT_TYPE;
  return CONTENT_TYPES[name.slice(dot + 1).toLowerCase()] ?? UNKNOWN_CONTENT_TYPE;
}
