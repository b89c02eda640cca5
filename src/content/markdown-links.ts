// Finds the links in a page's markdown and judges them against a tree, the way the service's link
// check does: relative links must land on a page or file of the tree; external ones are never fetched.
import { codeBlockLines } from './code-block-lines.js';
import { allDocuments, type DocsTree } from './docs-tree.js';
import { safeRelativePath } from './safe-relative-path.js';

export type LinkTarget =
  | { kind: 'page'; page: string }
  | { kind: 'file'; file: string }
  | { kind: 'url'; url: string };

export interface LinkClassification {
  /** `ok`: the target exists or is external; `broken`: missing from the tree; `in-app`: an app address. */
  status: 'ok' | 'broken' | 'in-app';
  target: LinkTarget;
}

const REFERENCE_DEFINITION = /^ {0,3}\[((?:[^\]\\]|\\.)+)\]:[ \t]*(?:<([^<>\n]*)>|(\S+))/;
const URI_AUTOLINK = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>/y;
const EMAIL_AUTOLINK =
  /<([\w.!#$%&'*+/=?^`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*)>/y;
const ESCAPED_PUNCTUATION = /\\([!-/:-@[-`{-~])/g;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const README = 'README.md';

/**
 * The link destinations of `markdown`, in document order: inline links and images
 * (`[t](href "title")`, `![alt](<with spaces.png>)`), autolinks (`<https://x>`, `<a@b.c>` as
 * `mailto:a@b.c`) and reference definitions (`[id]: href`). Code (fenced, indented, inline) is
 * skipped; so are raw HTML attributes and empty destinations. Backslash escapes are resolved.
 */
export function extractLinks(markdown: string): string[] {
  const found: { at: number; href: string }[] = [];
  const lines = markdown.split('\n');
  const code = codeBlockLines(lines);
  let offset = 0;
  const visible = lines.map((line, index) => {
    const start = offset;
    offset += line.length + 1;
    if (code[index]) return ' '.repeat(line.length);
    const definition = REFERENCE_DEFINITION.exec(line);
    if (!definition || definition[1]?.startsWith('^')) return line;
    found.push({ at: start, href: resolveEscapes(definition[2] ?? definition[3] ?? '') });
    return ' '.repeat(line.length);
  });
  const text = withoutCodeSpans(visible.join('\n'));

  const openBrackets: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '\\') {
      i += 1;
    } else if (char === '[') {
      openBrackets.push(i);
    } else if (char === ']') {
      const open = openBrackets.pop();
      if (open === undefined || text[i + 1] !== '(') continue;
      const destination = inlineDestination(text, i + 2);
      if (destination === undefined) continue;
      found.push({ at: open, href: destination.href });
      i = destination.end - 1;
    } else if (char === '<') {
      URI_AUTOLINK.lastIndex = i;
      EMAIL_AUTOLINK.lastIndex = i;
      const uri = URI_AUTOLINK.exec(text)?.[1];
      const email = uri === undefined ? EMAIL_AUTOLINK.exec(text)?.[1] : undefined;
      if (uri !== undefined) found.push({ at: i, href: uri });
      if (email !== undefined) found.push({ at: i, href: `mailto:${email}` });
    }
  }
  return found
    .filter((link) => link.href !== '')
    .sort((a, b) => a.at - b.at)
    .map((link) => link.href);
}

/**
 * What `href`, found on the page at `fromPagePath`, points to. Relative links resolve against the
 * page's folder (`/x` against the root), without `#anchor` and `?query`, and are `ok` when they name a
 * page's source file, a folder with a README.md, or a file; `broken` otherwise. `http(s)` links to one
 * of `appOrigins` are `in-app`; every other URL (`mailto:`, other sites) is `ok` and is not fetched.
 */
export function classifyLink(
  href: string,
  fromPagePath: string,
  tree: DocsTree,
  options: { appOrigins: readonly string[] },
): LinkClassification {
  const trimmed = href.trim();
  if (trimmed.startsWith('//')) return classifyUrl(`https:${trimmed}`, options.appOrigins);
  if (SCHEME.test(trimmed)) return classifyUrl(trimmed, options.appOrigins);

  const pathPart = trimmed.split(/[?#]/, 1)[0] ?? '';
  if (pathPart === '') return { status: 'ok', target: { kind: 'page', page: fromPagePath } };
  const decoded = percentDecoded(pathPart);
  const folder = fromPagePath.includes('/') ? fromPagePath.slice(0, fromPagePath.lastIndexOf('/') + 1) : '';
  const joined = decoded.startsWith('/') ? decoded.slice(1) : `${folder}${decoded}`;
  const path = resolvedPath(joined);
  const guess: LinkTarget = /\.md$/i.test(joined)
    ? { kind: 'page', page: joined }
    : { kind: 'file', file: joined };
  if (path === undefined) return { status: 'broken', target: guess };

  const { pages, files } = indexOf(tree);
  if (pages.has(path)) return { status: 'ok', target: { kind: 'page', page: path } };
  if (files.has(path)) return { status: 'ok', target: { kind: 'file', file: path } };
  const readme = path === '' ? README : `${path}/${README}`;
  if (pages.has(readme)) return { status: 'ok', target: { kind: 'page', page: readme } };
  return {
    status: 'broken',
    target: /\.md$/i.test(path) ? { kind: 'page', page: path } : { kind: 'file', file: path },
  };
}

function classifyUrl(url: string, appOrigins: readonly string[]): LinkClassification {
  const target: LinkTarget = { kind: 'url', url };
  if (!/^https?:/i.test(url)) return { status: 'ok', target };
  const origin = originOf(url);
  if (origin === undefined) return { status: 'broken', target };
  const inApp = appOrigins.some((appOrigin) => originOf(appOrigin) === origin);
  return { status: inApp ? 'in-app' : 'ok', target };
}

function originOf(url: string): string | undefined {
  return URL.canParse(url) ? new URL(url).origin : undefined;
}

/** The normalised path, `''` for the root folder, undefined when it leaves the root or is unsafe. */
function resolvedPath(joined: string): string | undefined {
  try {
    // A stand-in last segment makes links to the root folder (`./`, `a/..`) resolve to '' rather
    // than fail as naming nothing; it is cut off again, `/_` or `_`.
    return safeRelativePath(`${joined}/_`).slice(0, -2);
  } catch {
    return undefined;
  }
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const treeIndexes = new WeakMap<DocsTree, { pages: Set<string>; files: Set<string> }>();

/** Paths of the tree's pages and files, computed once per tree: the link check asks per link. */
function indexOf(tree: DocsTree): { pages: Set<string>; files: Set<string> } {
  const cached = treeIndexes.get(tree);
  if (cached) return cached;
  // Only documents have a file to link to: groups, links and placeholders have none.
  const pages = new Set(allDocuments(tree.pages).map((page) => page.path));
  const index = { pages, files: new Set(tree.files.map((file) => file.path)) };
  treeIndexes.set(tree, index);
  return index;
}

/** `[t](dest "title")` from just after `(`: the destination and the index past `)`, or undefined. */
function inlineDestination(text: string, start: number): { href: string; end: number } | undefined {
  let i = skipSpace(text, start);
  let raw: string;
  if (text[i] === '<') {
    const close = text.indexOf('>', i);
    if (close === -1 || /[\n<]/.test(text.slice(i + 1, close))) return undefined;
    raw = text.slice(i + 1, close);
    i = close + 1;
  } else {
    const begin = i;
    let depth = 0;
    for (; i < text.length; i += 1) {
      const char = text.charAt(i);
      if (char === '\\') i += 1;
      else if (char === '(') depth += 1;
      else if (char === ')' && depth-- === 0) break;
      else if (/\s/.test(char)) break;
    }
    raw = text.slice(begin, i);
  }
  i = skipSpace(text, i);
  const quote = text[i];
  if (quote === '"' || quote === "'" || (quote === '(' && raw !== '')) {
    const close = text.indexOf(quote === '(' ? ')' : quote, i + 1);
    if (close === -1) return undefined;
    i = skipSpace(text, close + 1);
  }
  if (text[i] !== ')') return undefined;
  return { href: resolveEscapes(raw), end: i + 1 };
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /[ \t\r\n]/.test(text.charAt(i))) i += 1;
  return i;
}

/** `text` with each inline code span blanked out, keeping every other character at its offset. */
function withoutCodeSpans(text: string): string {
  const runs = [...text.matchAll(/(?<!\\)`+/g)];
  let result = text;
  for (let r = 0; r < runs.length; r += 1) {
    const open = runs[r];
    if (open === undefined) continue;
    const closeIndex = runs.findIndex((run, index) => index > r && run[0] === open[0]);
    const close = runs[closeIndex];
    if (close === undefined) continue;
    const from = open.index;
    const to = close.index + close[0].length;
    // A code span ends with its paragraph: a blank line in between means the backticks are literal.
    if (/\n[ \t]*\r?\n/.test(text.slice(from, to))) continue;
    result = `${result.slice(0, from)}${' '.repeat(to - from)}${result.slice(to)}`;
    r = closeIndex;
  }
  return result;
}

function resolveEscapes(raw: string): string {
  return raw.replace(ESCAPED_PUNCTUATION, '$1');
}
