// How a SUMMARY.md is written, read off the file itself so that lines docsync adds look like the
// writer's own: bullet, indent, links from the root (`/guides/a.md`) or relative, group heading
// level, line ends. Also the line syntax both the renderer and the rewriter write.

export interface SummaryStyle {
  /** `*`, `-`, `+`, or `1.` for a numbered list. */
  bullet: string;
  /** One level of nesting: two or four spaces, or a tab. */
  indent: string;
  /** Before a link to a page: '' (relative to the summary's folder), `/` (from the docs root) or `./`. */
  linkPrefix: '' | '/' | './';
  /** `##`, or deeper when the file writes its groups so. */
  groupHeading: string;
  eol: '\n' | '\r\n';
}

export const DEFAULT_SUMMARY_STYLE: Readonly<SummaryStyle> = Object.freeze({
  bullet: '*',
  indent: '  ',
  linkPrefix: '',
  groupHeading: '##',
  eol: '\n',
});

/** A list item: indent, marker, the space after it, the rest. */
export const LIST_ITEM = /^([ \t]*)([*+-]|\d{1,9}[.)])([ \t]+)(.*?)[ \t]*$/;
/** An ATX heading of level 2 or deeper: its marker and text. */
export const GROUP_HEADING = /^ {0,3}(#{2,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const PATH_CHARACTERS_TO_ENCODE = /[%\s()<>#?[\]"'\\]/gu;
const TAB_WIDTH = 4;

/** The style of `text` (a SUMMARY.md), defaults for what it does not show. */
export function detectStyle(text: string): SummaryStyle {
  const lines = text.split('\n');
  const bullets = new Map<string, number>();
  const prefixes = new Map<SummaryStyle['linkPrefix'], number>();
  const steps = new Map<string, number>();
  let crlf = 0;
  let headings: string | undefined;
  let previousIndent: string | undefined;
  for (const raw of lines) {
    if (raw.endsWith('\r')) crlf += 1;
    const line = raw.replace(/\r$/, '');
    const heading = GROUP_HEADING.exec(line);
    if (heading !== null) {
      headings ??= heading[1];
      previousIndent = undefined;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item === null) continue;
    const [, indent = '', marker = '*', , rest = ''] = item;
    count(bullets, /^\d/.test(marker) ? '1.' : marker);
    const destination = /\]\(\s*<?([^)\s>]*)/.exec(rest)?.[1];
    if (destination !== undefined && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(destination))
      count(prefixes, destination.startsWith('/') ? '/' : destination.startsWith('./') ? './' : '');
    // A deeper item right below another: the difference is one level of this file's indent.
    if (previousIndent !== undefined && columns(indent) > columns(previousIndent)) {
      const step = indent.startsWith(previousIndent) ? indent.slice(previousIndent.length) : undefined;
      if (step !== undefined && step !== '') count(steps, step);
    }
    previousIndent = indent;
  }
  return {
    bullet: mostCommon(bullets) ?? DEFAULT_SUMMARY_STYLE.bullet,
    indent: mostCommon(steps) ?? DEFAULT_SUMMARY_STYLE.indent,
    linkPrefix: mostCommon(prefixes) ?? DEFAULT_SUMMARY_STYLE.linkPrefix,
    groupHeading: headings ?? DEFAULT_SUMMARY_STYLE.groupHeading,
    eol: crlf * 2 > lines.length - 1 && crlf > 0 ? '\r\n' : '\n',
  };
}

/** Link text or placeholder text: brackets and backslashes escaped, so it reads back as written. */
export function escapeTitle(title: string): string {
  return title.replace(/[\\[\]]/g, '\\$&');
}

/** A group heading's text: a trailing run of `#` would be read as the heading's closing sequence. */
export function escapeHeading(title: string): string {
  return escapeTitle(title).replace(/(^|[ \t])(#+)$/, '$1\\$2');
}

/** A link destination to the page at `path` (from the docs root), as `style` writes them. */
export function pageHref(path: string, summaryPath: string, style: Pick<SummaryStyle, 'linkPrefix'>): string {
  const target =
    style.linkPrefix === '/'
      ? `/${path}`
      : `${style.linkPrefix}${relativePath(summaryPath.split('/').slice(0, -1), path)}`;
  return target.replace(PATH_CHARACTERS_TO_ENCODE, percentEncoded);
}

/** An address as a link destination: in `<>` when it holds what would end a bare one. */
export function addressHref(href: string): string {
  return /[\s()<>]/.test(href) ? `<${href.replace(/[<>]/g, percentEncoded)}>` : href;
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

/** Width of an indent, tabs to the next multiple of four as CommonMark counts them. */
export function columns(indent: string): number {
  let column = 0;
  for (const char of indent) column += char === '\t' ? TAB_WIDTH - (column % TAB_WIDTH) : 1;
  return column;
}

function count<T>(counts: Map<T, number>, key: T): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function mostCommon<T>(counts: ReadonlyMap<T, number>): T | undefined {
  let best: T | undefined;
  let most = 0;
  for (const [key, n] of counts) {
    if (n > most) {
      best = key;
      most = n;
    }
  }
  return best;
}
