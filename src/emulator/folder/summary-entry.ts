// What one SUMMARY.md entry points to, from its text: the first inline link that is not an image
// (`[Install](guides/install.md#step "tip")`) resolved against the summary's folder, or no link at
// all. It judges nothing against the folder's files: build-page-tree.ts does.
import { folderPath } from './folder-path.js';
import { ImportRefusedError } from './import-refused-error.js';
import { plainText, resolveEscapes } from './summary-lines.js';

export type EntryTarget =
  /** A relative link to a file, normalised against the docs root. Whether it exists is not known. */
  | { kind: 'file'; path: string }
  /** A relative link ending in `/` (or `.`, `..`): `path` is '' for the docs root itself. */
  | { kind: 'folder'; path: string }
  /** An address with a scheme (`https:`, `mailto:`) or another host (`//host/x`). */
  | { kind: 'url'; href: string }
  /** No link, an empty one (`[Overview]()`), or one to an anchor only (`[Intro](#intro)`). */
  | { kind: 'none'; anchorOnly: boolean }
  /** A relative link that leaves the docs root or that no file system would hold. */
  | { kind: 'outside'; reason: string };

export interface ReadEntry {
  /** The link text, or the whole text without a link; escapes resolved, whitespace collapsed. */
  title: string;
  target: EntryTarget;
  /** Text besides the link, or a second link: read past (the first link is what counts). */
  textAround: boolean;
}

interface FoundLink {
  start: number;
  end: number;
  text: string;
  destination: string;
}

/** Characters looked at for the `]` closing a link's text. */
const MAX_LINK_TEXT = 500;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The entry's title and target. `folder` is the summary's folder in the docs root ('' or `docs/`).
 * The one refusal: a link holding a control character once decoded (`a%00b.md`), which no honest
 * summary holds: PATH_UNSAFE naming the line.
 */
export function readEntry(text: string, folder: string, where: string): ReadEntry {
  const link = firstLink(text, 0);
  if (link === undefined)
    return { title: plainText(text), target: { kind: 'none', anchorOnly: false }, textAround: false };
  const textAround = text.slice(0, link.start).trim() !== '' || text.slice(link.end).trim() !== '';
  return { title: plainText(link.text), target: targetOf(link.destination, folder, where), textAround };
}

function targetOf(destination: string, folder: string, where: string): EntryTarget {
  if (SCHEME.test(destination) || destination.startsWith('//')) return { kind: 'url', href: destination };
  const pathPart = destination.split(/[?#]/, 1)[0] ?? '';
  if (pathPart === '') return { kind: 'none', anchorOnly: destination !== '' };
  const decoded = percentDecoded(pathPart);
  if (CONTROL.test(decoded)) {
    throw new ImportRefusedError(
      'PATH_UNSAFE',
      `${where}: the link ${JSON.stringify(destination)} holds a control character; remove it`,
    );
  }
  const joined = decoded.startsWith('/') ? decoded.slice(1) : `${folder}${decoded}`;
  const isFolder = /[/\\]$/.test(decoded) || /(?:^|[/\\])\.\.?$/.test(decoded);
  const checked = folderPath(joined);
  if (checked.ok)
    return isFolder ? { kind: 'folder', path: checked.path } : { kind: 'file', path: checked.path };
  if (checked.problem === 'top' && isFolder) return { kind: 'folder', path: '' };
  return { kind: 'outside', reason: `${decoded} ${checked.reason}` };
}

/** `%20` and other escapes decoded; text that is not an encoding (`100%.md`) as written. */
function percentDecoded(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The first inline link of `text` at or after `from` that is not an image and not escaped. */
function firstLink(text: string, from: number): FoundLink | undefined {
  for (let i = from; i < text.length; i += 1) {
    const char = text[i];
    if (char === '\\') {
      i += 1;
      continue;
    }
    if (char !== '[') continue;
    const close = closingBracket(text, i);
    if (close === -1 || text[close + 1] !== '(') continue;
    const destination = readDestination(text, close + 2);
    if (destination === undefined) continue;
    if (text[i - 1] === '!') {
      // An image: its alt text is no link of the entry; look after it.
      i = destination.end - 1;
      continue;
    }
    return { start: i, end: destination.end, text: text.slice(i + 1, close), destination: destination.value };
  }
  return undefined;
}

/** The `]` matching the `[` at `open` (brackets nest, escapes count as text), or -1. */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  // Link texts are short: the bound keeps a line of many `[` from costing its length squared.
  const end = Math.min(text.length, open + MAX_LINK_TEXT);
  for (let i = open; i < end; i += 1) {
    const char = text[i];
    if (char === '\\') i += 1;
    else if (char === '[') depth += 1;
    else if (char === ']') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/**
 * The destination starting at `at` (after `(`), `<with spaces>` or plain with balanced parentheses,
 * followed by an optional tooltip and `)`: its value with escapes resolved, and where the link ends.
 */
function readDestination(text: string, at: number): { value: string; end: number } | undefined {
  let i = skipSpaces(text, at);
  let value: string;
  if (text[i] === '<') {
    const start = i + 1;
    for (i = start; i < text.length && text[i] !== '>'; i += 1) {
      if (text[i] === '<') return undefined;
      if (text[i] === '\\') i += 1;
    }
    if (i >= text.length) return undefined;
    value = text.slice(start, i);
    i += 1;
  } else {
    const start = i;
    let depth = 0;
    for (; i < text.length; i += 1) {
      const char = text[i] ?? '';
      if (char === '\\') i += 1;
      else if (/\s/.test(char)) break;
      else if (char === '(') depth += 1;
      else if (char === ')') {
        if (depth === 0) break;
        depth -= 1;
      }
    }
    value = text.slice(start, i);
  }
  const beforeTooltip = i;
  i = skipSpaces(text, i);
  const quote = text[i];
  if (i > beforeTooltip && (quote === '"' || quote === "'" || quote === '(')) {
    const closing = quote === '(' ? ')' : quote;
    for (i += 1; i < text.length && text[i] !== closing; i += 1) if (text[i] === '\\') i += 1;
    if (i >= text.length) return undefined;
    i = skipSpaces(text, i + 1);
  }
  if (text[i] !== ')') return undefined;
  return { value: resolveEscapes(value), end: i + 1 };
}

function skipSpaces(text: string, at: number): number {
  let i = at;
  while (text[i] === ' ' || text[i] === '\t') i += 1;
  return i;
}
