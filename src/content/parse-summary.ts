// Reads a SUMMARY.md: the markdown list of links that gives a docs folder its page order, nesting
// and titles. Only the list matters; headings (`## Group`) and other text are read past.
import { ContentError } from './content-error.js';
import { safeRelativePath } from './safe-relative-path.js';

export interface SummaryItem {
  /** 1-based line in SUMMARY.md, for error messages. */
  line: number;
  /** The link text, escapes resolved and whitespace collapsed; may be empty. */
  title: string;
  /** The linked file, resolved against the summary's folder and normalised. */
  path: string;
  children: SummaryItem[];
}

const LIST_ITEM = /^([ \t]*)(?:[*+-]|\d{1,9}[.)])[ \t]+(.*?)[ \t]*$/;
// `[Title](path.md)` or `[Title](<path with spaces.md> "tooltip")`: one link and nothing else. The
// text may hold escaped brackets and one level of balanced ones (`[Setup [beta]](setup.md)`).
const LINK_ONLY =
  /^\[((?:[^[\]\\]|\\.|\[(?:[^[\]\\]|\\.)*\])*)\]\([ \t]*(<[^<>\n]*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*)(?:[ \t]+(?:"[^"]*"|'[^']*'))?[ \t]*\)$/;
const ESCAPED_PUNCTUATION = /\\([!-/:-@[-`{-~])/g;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const TAB_WIDTH = 4;

/**
 * The items of the summary at `summaryPath`, nested as its list is: an item indented further than
 * the one above it is its child. Every list item must be a single link to a file of the folder
 * (checked for existence by the caller); anything else in a list is a CONTENT_INVALID error naming
 * the line, and a link leaving the folder is PATH_UNSAFE.
 */
export function parseSummary(text: string, summaryPath: string): SummaryItem[] {
  const folder = summaryPath.includes('/') ? summaryPath.slice(0, summaryPath.lastIndexOf('/') + 1) : '';
  const roots: SummaryItem[] = [];
  const open: { indent: number; item: SummaryItem }[] = [];

  text.split('\n').forEach((rawLine, index) => {
    const line = index + 1;
    const listItem = LIST_ITEM.exec(rawLine.replace(/\r$/, ''));
    if (!listItem) return;
    const where = `${summaryPath}:${line}`;
    const link = LINK_ONLY.exec(listItem[2] ?? '');
    if (!link) {
      throw new ContentError(
        'CONTENT_INVALID',
        `${where}: expected one link to a page, like * [Title](page.md)`,
        { path: summaryPath },
      );
    }
    const item: SummaryItem = {
      line,
      title: collapseWhitespace(resolveEscapes(link[1] ?? '')),
      path: linkedPath(link[2] ?? '', folder, where),
      children: [],
    };
    const indent = indentColumns(listItem[1] ?? '');
    while ((open.at(-1)?.indent ?? -1) >= indent) open.pop();
    (open.at(-1)?.item.children ?? roots).push(item);
    open.push({ indent, item });
  });
  return roots;
}

function linkedPath(destination: string, folder: string, where: string): string {
  const unwrapped = /^<.*>$/.test(destination) ? destination.slice(1, -1) : resolveEscapes(destination);
  const withoutAnchor = unwrapped.split(/[?#]/, 1)[0] ?? '';
  if (withoutAnchor === '' || SCHEME.test(withoutAnchor)) {
    throw new ContentError(
      'CONTENT_INVALID',
      `${where}: links to ${unwrapped || '(nothing)'}, not to a page`,
    );
  }
  const decoded = percentDecoded(withoutAnchor);
  const joined = decoded.startsWith('/') ? decoded.slice(1) : `${folder}${decoded}`;
  return safeRelativePath(joined, { subject: `${where}: link`, root: 'docs folder' });
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // A hand-written `100%.md` is not an encoding; take it as written.
    return text;
  }
}

function resolveEscapes(text: string): string {
  return text.replace(ESCAPED_PUNCTUATION, '$1');
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function indentColumns(indent: string): number {
  let column = 0;
  for (const char of indent) column += char === '\t' ? TAB_WIDTH - (column % TAB_WIDTH) : 1;
  return column;
}
