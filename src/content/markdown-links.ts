// Finds the links in a page's markdown and judges them against a tree, the way the service's link
// check does: relative links must land on a page or file of the tree; external ones are never fetched.
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
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

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const README = 'README.md';

// Made once: building the GFM extensions costs more than parsing a small page.
const PARSE_OPTIONS = { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] };
const MAY_HOLD_LINK = /[[<@]|https?:|www\./i;

/** A link destination as written on a page, and where: 1-based line and column of its first character. */
export interface MarkdownLink {
  href: string;
  line: number;
  column: number;
}

/**
 * The link destinations of `markdown`, in document order (see findLinks).
 */
export function extractLinks(markdown: string): string[] {
  const known = linksOfText.get(markdown);
  if (known !== undefined) {
    // Read again: most recently used, last to go.
    linksOfText.delete(markdown);
    linksOfText.set(markdown, known);
    return [...known];
  }
  const links = findLinks(markdown).map((link) => link.href);
  linksOfText.set(markdown, links);
  remembered += markdown.length;
  for (const oldest of linksOfText.keys()) {
    if (remembered <= MAX_REMEMBERED_CHARACTERS) break;
    linksOfText.delete(oldest);
    remembered -= oldest.length;
  }
  return [...links];
}

/**
 * Pages whose links extractLinks remembers, by their text, up to this much text in all: parsing costs
 * milliseconds a page, and the local service checks the links of every revision, most of whose pages
 * the last one held unchanged.
 */
const MAX_REMEMBERED_CHARACTERS = 64 * 1024 * 1024;
const linksOfText = new Map<string, readonly string[]>();
let remembered = 0;

/**
 * The links of `markdown` with their positions, in document order: inline links and images
 * (`[t](href "title")`, `![alt](<with spaces.png>)`), autolinks (`<https://x>`, `<a@b.c>` as
 * `mailto:a@b.c`, and GFM's bare `https://x` and `www.x`), reference definitions (`[id]: href`, where a
 * reference's address is written) and the `href` of `<a>` and `src` of `<img>` in raw HTML, which is
 * how the service's git sync writes figures. Code (fenced, indented, inline) is skipped; so are empty
 * destinations and footnotes. Escapes and character references are resolved, as the parser resolves
 * them (CommonMark with GFM).
 */
export function findLinks(markdown: string): MarkdownLink[] {
  // Parsing costs about a millisecond even for a small page: a page without any character that
  // can start a link (a bracket, a tag or autolink, a bare address or e-mail) has none to find.
  if (!MAY_HOLD_LINK.test(markdown)) return [];
  const tree = fromMarkdown(markdown, PARSE_OPTIONS);
  const found: (MarkdownLink & { offset: number })[] = [];
  const visit = (node: Nodes): void => {
    const start = node.position?.start;
    if (start !== undefined) {
      if (node.type === 'link' || node.type === 'image' || node.type === 'definition') {
        found.push({ href: node.url, line: start.line, column: start.column, offset: start.offset ?? 0 });
      } else if (node.type === 'html') {
        const end = node.position?.end.offset;
        // The source, not the node's value: inside a block quote or a list the value lacks the
        // container's prefixes, and positions counted in it would drift.
        if (start.offset !== undefined && end !== undefined)
          found.push(...htmlLinks(markdown, { ...start, offset: start.offset }, end));
      }
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  return found
    .filter((link) => link.href !== '')
    .sort((a, b) => a.offset - b.offset)
    .map(({ href, line, column }) => ({ href, line, column }));
}

// An `<a ...>` or `<img ...>` start tag, then one `href=` or `src=` attribute in it, quoted or not.
const HTML_TAG = /<(a|img)(?=[\s/>])[^>]*>/gi;
const HTML_ATTRIBUTE = /[\s"'](href|src)[ \t\r\n]*=[ \t\r\n]*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;

function htmlLinks(
  markdown: string,
  start: { line: number; column: number; offset: number },
  to: number,
): (MarkdownLink & { offset: number })[] {
  const from = start.offset;
  // A comment's tags are not rendered: blanked out, keeping every other character at its offset.
  const html = markdown
    .slice(from, to)
    .replace(/<!--[\s\S]*?(?:-->|$)/g, (comment) => ' '.repeat(comment.length));
  const links: (MarkdownLink & { offset: number })[] = [];
  for (const tag of html.matchAll(HTML_TAG)) {
    const wanted = tag[1]?.toLowerCase() === 'a' ? 'href' : 'src';
    for (const attribute of tag[0].matchAll(HTML_ATTRIBUTE)) {
      if (attribute[1]?.toLowerCase() !== wanted) continue;
      const raw = attribute[2] ?? attribute[3] ?? attribute[4] ?? '';
      const at = tag.index + attribute.index + attribute[0].indexOf(raw, attribute[1].length);
      links.push({
        href: decodeHtmlReferences(raw.trim()),
        ...positionIn(html, at, start),
        offset: from + at,
      });
    }
  }
  return links;
}

/**
 * 1-based line and column of `at` in `text`, which starts at `start`; `\r\n`, `\r` and `\n` end
 * lines, as for the parser. Counted within the HTML block only: a page may have many.
 */
function positionIn(
  text: string,
  at: number,
  start: { line: number; column: number },
): { line: number; column: number } {
  const before = text.slice(0, at);
  const breaks = before.match(/\r\n|\r|\n/g)?.length ?? 0;
  if (breaks === 0) return { line: start.line, column: start.column + at };
  const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
  return { line: start.line + breaks, column: at - lineStart + 1 };
}

const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** An attribute's character references (`&amp;`, `&#47;`, `&#x2F;`) as the characters they name. */
function decodeHtmlReferences(text: string): string {
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z]+);/g, (whole, name: string) => {
    if (!name.startsWith('#')) return NAMED_REFERENCES[name] ?? whole;
    const code =
      name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * What `href`, found on the page at `fromPagePath`, points to. Relative links resolve against the
 * page's folder (`/x` against the root; `/` is the root folder), without `#anchor` and `?query`, and
 * are `ok` when they name a page's source file, a folder with a README.md, or a file; `broken`
 * otherwise. `http(s)` links to one
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
  // From the docs root, not the disk's: `/`, `%2F` and a root page's `\` name the root folder, as
  // the service reads them, and safeRelativePath would refuse them as absolute.
  const joined = (decoded.startsWith('/') ? decoded : `${folder}${decoded}`).replace(/^[/\\]+/, '');
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
  if (joined === '') return '';
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
