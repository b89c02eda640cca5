// Reads a SUMMARY.md line by line into what each line says: list entries (a page, a folder, an
// external link, a title with no link) nested by indentation, headings and thematic breaks. It judges
// nothing against the folder and never refuses a line: read-outline decides, and warns (see
// docs/folder-format.md). Each entry keeps its line and where its link sits, so an export can rewrite
// one line and leave the others as they were written.

import { fencedCodeLines, indentColumns } from './code-block-lines.js';
import { ContentError } from './content-error.js';
import { safeRelativePath } from './safe-relative-path.js';

/** Where an entry's link sits in its line: 0-based offsets into the line without its `\r`. */
export interface LinkSpan {
  /** The whole link, `[text](destination "tooltip")`. */
  start: number;
  end: number;
  /** The destination as written, `<` and `>` included when it has them. */
  destination: { start: number; end: number };
}

/** Something on an entry's line that is read past: the entry is still read, with a warning. */
export type SummaryUnclear =
  /** Text before or after the link: only the link is read. */
  | 'text-around-link'
  /** More than one link: the first is read. */
  | 'several-links'
  /** A link to an anchor or query only (`[Intro](#intro)`): it names no page. */
  | 'anchor-only';

interface EntryBase {
  /** 1-based line in the summary. */
  line: number;
  /** Columns before the list marker, a tab counting to the next multiple of 4. */
  indent: number;
  /** The link text (or the item's text without a link), escapes resolved, whitespace collapsed. */
  title: string;
  /** Entries indented under this one, in order. */
  children: SummaryEntry[];
  unclear?: SummaryUnclear;
}

/** A list item of the summary, by what its first link points to. */
export type SummaryEntry =
  /** A relative link to a file: `[Install](guides/install.md)`. Whether it exists is not checked. */
  | (EntryBase & { kind: 'document'; path: string; href: string; link: LinkSpan })
  /** A relative link ending in `/` (`[Guides](guides/)`, `[Home](/)`): `path` is '' for the root. */
  | (EntryBase & { kind: 'folder'; path: string; href: string; link: LinkSpan })
  /** A link with a scheme (`https:`, `mailto:`) or to another host (`//host/x`). */
  | (EntryBase & { kind: 'link'; href: string; link: LinkSpan })
  /** No link (`* Overview`), an empty one (`[Overview]()`) or one naming no page (`(#intro)`). */
  | (EntryBase & { kind: 'placeholder'; link?: LinkSpan })
  /** A relative link that cannot name a file of the folder: it leaves it, or no file system takes it. */
  | (EntryBase & { kind: 'outside'; href: string; reason: string; link: LinkSpan });

export type SummaryItem =
  | SummaryEntry
  /** `# Title` (level 1, the summary's title) or `## Group` (level 2 to 6), ATX or setext. */
  | { kind: 'heading'; line: number; level: number; title: string }
  /** A thematic break, `---`: it ends the group above. */
  | { kind: 'break'; line: number }
  /** A line outside any list that holds a link: most likely an entry missing its `* `. */
  | { kind: 'stray-link'; line: number };

const LIST_ITEM = /^([ \t]*)(?:[*+-]|\d{1,9}[.)])(?:[ \t]+(.*?))?[ \t]*$/d;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
/** Indented too: under an entry, a comment is part of the entry's content and still hides what it holds. */
const HTML_COMMENT_OPEN = /^[ \t]*<!--/;
// `[text](destination "tooltip")`, an image when it starts with `!`. The text may hold escapes and
// one level of balanced brackets (`[Setup [beta]](setup.md)`), so an image inside a link is its text.
const INLINE_LINK =
  /(!?)\[((?:[^[\]\\]|\\.|\[(?:[^[\]\\]|\\.)*\])*)\]\([ \t]*(<[^<>\n]*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*)(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^()]*\)))?[ \t]*\)/dg;
const ESCAPED_PUNCTUATION = /\\([!-/:-@[-`{-~])/g;
// Two letters at least: `C:\docs\a.md` is a Windows path (refused as such), not a URL.
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;

/**
 * The items of the summary at `summaryPath` (relative to the docs root), in line order; entries
 * nest under the entry above them that is indented less. Links resolve against the summary's
 * folder, `/x` against the root, percent-decoded, without `#anchor` or `?query`. Fenced code and
 * HTML comments are skipped. The one refusal: a link with a control character (`%00`), which no
 * honest summary holds, is a PATH_UNSAFE ContentError naming the line.
 */
/** Characters of a line that are read: the rest of a longer line is text beside its entry. */
const MAX_LINE_LENGTH = 1000;
/** Nesting levels kept; entries indented deeper are placed at this depth. */
const MAX_DEPTH = 64;

export function parseSummary(text: string, summaryPath: string): SummaryItem[] {
  const folder = summaryPath.includes('/') ? summaryPath.slice(0, summaryPath.lastIndexOf('/') + 1) : '';
  // A byte order mark (written by some Windows editors) is read as a space: the first line is still
  // an entry, and offsets into it stay those of the text.
  const lines = text
    .replace(/^\uFEFF/, ' ')
    .split('\n')
    .map((line) => line.replace(/\r$/, ''));
  const fenced = fencedCodeLines(lines);
  const items: SummaryItem[] = [];
  const open: { indent: number; entry: SummaryEntry }[] = [];
  let inComment = false;
  // Lines of text outside a list since the last blank line: a setext underline makes them a heading.
  let paragraph: { line: number; text: string[] } | undefined;

  lines.forEach((whole, index) => {
    const line = index + 1;
    // Real entries are short; reading a hostile line of megabytes whole would cost minutes.
    const raw = whole.length > MAX_LINE_LENGTH ? whole.slice(0, MAX_LINE_LENGTH) : whole;
    if (inComment) {
      inComment = !raw.includes('-->');
      return;
    }
    if (!fenced[index] && HTML_COMMENT_OPEN.test(raw)) {
      // A comment hides the entries in it, as it hides them from any markdown reader.
      inComment = !raw.slice(raw.indexOf('<!--') + 4).includes('-->');
      paragraph = undefined;
      return;
    }
    if (fenced[index] || raw.trim() === '') {
      paragraph = undefined;
      return;
    }
    const underline = SETEXT_UNDERLINE.exec(raw)?.[1];
    if (paragraph !== undefined && underline !== undefined) {
      const title = plainText(paragraph.text.join(' '));
      items.push({ kind: 'heading', line: paragraph.line, level: underline.startsWith('=') ? 1 : 2, title });
      open.length = 0;
      paragraph = undefined;
      return;
    }
    if (THEMATIC_BREAK.test(raw)) {
      items.push({ kind: 'break', line });
      open.length = 0;
      paragraph = undefined;
      return;
    }
    const heading = ATX_HEADING.exec(raw);
    if (heading) {
      const level = heading[1]?.length ?? 1;
      items.push({ kind: 'heading', line, level, title: plainText(withoutClosingHashes(heading[2] ?? '')) });
      open.length = 0;
      paragraph = undefined;
      return;
    }
    const listItem = LIST_ITEM.exec(raw);
    if (listItem) {
      const indent = indentColumns(listItem[1] ?? '');
      const contentStart = listItem.indices?.[2]?.[0] ?? raw.length;
      const read = readEntry(listItem[2] ?? '', contentStart, { line, indent, folder, summaryPath });
      const entry: SummaryEntry =
        raw === whole || read.unclear !== undefined ? read : { ...read, unclear: 'text-around-link' };
      while ((open.at(-1)?.indent ?? -1) >= indent) open.pop();
      // Deeper than any table of contents goes: a sibling of the deepest entry, never a stack overflow.
      while (open.length >= MAX_DEPTH) open.pop();
      const parent = open.at(-1)?.entry;
      if (parent === undefined) items.push(entry);
      else parent.children.push(entry);
      open.push({ indent, entry });
      paragraph = undefined;
      return;
    }
    // A line inside a list item (indented text) continues it; one at the margin is text of its own.
    if (open.length > 0 && indentColumns(raw) > 0) return;
    open.length = 0;
    if (paragraph === undefined) paragraph = { line, text: [] };
    paragraph.text.push(raw.trim());
    if (firstLink(raw) !== undefined) items.push({ kind: 'stray-link', line });
  });
  return items;
}

interface EntryContext {
  line: number;
  indent: number;
  folder: string;
  summaryPath: string;
}

function readEntry(content: string, contentStart: number, context: EntryContext): SummaryEntry {
  const base = { line: context.line, indent: context.indent, children: [] };
  const found = firstLink(content);
  if (found === undefined) return { ...base, kind: 'placeholder', title: plainText(content) };

  const link: LinkSpan = {
    start: contentStart + found.start,
    end: contentStart + found.end,
    destination: {
      start: contentStart + found.destinationStart,
      end: contentStart + found.destinationStart + found.destination.length,
    },
  };
  const title = plainText(found.text);
  const around = content.slice(0, found.start).trim() !== '' || content.slice(found.end).trim() !== '';
  const unclear: SummaryUnclear | undefined =
    firstLink(content, found.end) !== undefined ? 'several-links' : around ? 'text-around-link' : undefined;
  const entry = { ...base, title, link, ...(unclear === undefined ? {} : { unclear }) };

  const href = /^<.*>$/.test(found.destination)
    ? found.destination.slice(1, -1)
    : resolveEscapes(found.destination);
  if (SCHEME.test(href) || href.startsWith('//')) return { ...entry, kind: 'link', href };
  const pathPart = href.split(/[?#]/, 1)[0] ?? '';
  if (pathPart === '') {
    return { ...entry, kind: 'placeholder', ...(href === '' ? {} : { unclear: 'anchor-only' }) };
  }
  const decoded = percentDecoded(pathPart);
  if ([...decoded].some(isControl)) {
    throw new ContentError(
      'PATH_UNSAFE',
      `${context.summaryPath}:${context.line}: the link ${JSON.stringify(href)} holds a control character`,
      { path: context.summaryPath },
    );
  }
  const joined = decoded.startsWith('/') ? decoded.slice(1) : `${context.folder}${decoded}`;
  const isFolder = /[/\\]$/.test(decoded) || /(^|[/\\])\.{1,2}$/.test(decoded);
  try {
    const subject = { subject: 'link', root: 'docs folder' };
    if (!isFolder) return { ...entry, kind: 'document', href, path: safeRelativePath(joined, subject) };
    // A stand-in file name lets the root folder itself (`/`, `./`) normalise: cut off again below.
    const path = safeRelativePath(joined === '' ? '_' : `${joined}/_`, subject)
      .slice(0, -1)
      .replace(/\/$/, '');
    return { ...entry, kind: 'folder', href, path };
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    return { ...entry, kind: 'outside', href, reason: error.message };
  }
}

interface FoundLink {
  start: number;
  end: number;
  text: string;
  destination: string;
  destinationStart: number;
}

/** The first link of `text` at or after `from` that is not an image and not escaped. */
function firstLink(text: string, from = 0): FoundLink | undefined {
  const pattern = new RegExp(INLINE_LINK);
  pattern.lastIndex = from;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const bracket = match.index + (match[1]?.length ?? 0);
    if (escaped(text, bracket)) {
      pattern.lastIndex = bracket + 1;
      continue;
    }
    if (match[1] === '!') continue;
    const destination = match[3] ?? '';
    return {
      start: match.index,
      end: match.index + match[0].length,
      text: match[2] ?? '',
      destination,
      destinationStart: match.indices?.[3]?.[0] ?? match.index,
    };
  }
  return undefined;
}

/** Whether the character at `at` is escaped: preceded by an odd number of backslashes. */
function escaped(text: string, at: number): boolean {
  let count = 0;
  for (let i = at - 1; i >= 0 && text[i] === '\\'; i -= 1) count += 1;
  return count % 2 === 1;
}

function withoutClosingHashes(text: string): string {
  if (/^#+$/.test(text)) return '';
  return text.replace(/[ \t]+#+$/, '');
}

function plainText(text: string): string {
  return resolveEscapes(text).replace(/\s+/g, ' ').trim();
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

/** C0 and C1 controls and DEL, as safeRelativePath refuses them. */
function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}
