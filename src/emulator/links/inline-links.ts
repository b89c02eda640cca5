// The links of one run of inline markdown (a paragraph, a heading), found in one pass left to right
// with CommonMark's precedence: code spans, autolinks and raw HTML first, then brackets matched
// innermost first, so that a link holds no link and an image's alt text holds none either.
import { decodeDestination, isAsciiPunctuation } from './decode-destination.js';
import type { FoundLink } from './found-link.js';
import { htmlAt } from './html-tag.js';
import { pastSpace, pastTitle } from './link-title.js';
import { literalAutolinkAt } from './literal-autolinks.js';

interface Opener {
  at: number;
  image: boolean;
  active: boolean;
}

const SCHEME_AUTOLINK = /[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*>/y;
const EMAIL_AUTOLINK =
  /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>/y;

/** Appends the links of `text` from `from` to `to` to `found`, each at the offset where it starts. */
export function inlineLinks(
  text: string,
  from: number,
  to: number,
  found: FoundLink[],
  labels: ReadonlySet<string>,
): void {
  const openers: Opener[] = [];
  let at = from;
  while (at < to) {
    const code = text.charCodeAt(at);
    if (code === 0x5c) {
      at += at + 1 < to && isAsciiPunctuation(text.charCodeAt(at + 1)) ? 2 : 1;
    } else if (code === 0x60) {
      at = pastCodeSpan(text, at, to);
    } else if (code === 0x3c) {
      at = pastAngle(text, at, to, found);
    } else if (code === 0x5b) {
      openers.push({ at, image: false, active: true });
      at += 1;
    } else if (code === 0x21 && text.charCodeAt(at + 1) === 0x5b) {
      openers.push({ at, image: true, active: true });
      at += 2;
    } else if (code === 0x5d) {
      at = closeBracket(text, at, to, openers, found, labels);
    } else {
      const literal = literalAutolinkAt(text, at, from, to);
      if (literal === undefined) at += 1;
      else {
        found.push({ kind: 'literal', href: literal.href, offset: literal.offset });
        at = literal.end;
      }
    }
  }
}

/** Past a code span starting at `at`, or past its opening backticks when nothing closes it. */
function pastCodeSpan(text: string, at: number, to: number): number {
  let open = at;
  while (open < to && text.charCodeAt(open) === 0x60) open += 1;
  const length = open - at;
  let search = open;
  while (search < to) {
    const close = text.indexOf('`', search);
    if (close < 0 || close >= to) break;
    let end = close;
    while (end < to && text.charCodeAt(end) === 0x60) end += 1;
    if (end - close === length) return end;
    search = end;
  }
  return open;
}

/** Past an autolink or raw HTML at `at` (noting its link), or one character when it is neither. */
function pastAngle(text: string, at: number, to: number, found: FoundLink[]): number {
  for (const [pattern, prefix] of [
    [SCHEME_AUTOLINK, ''],
    [EMAIL_AUTOLINK, 'mailto:'],
  ] as const) {
    pattern.lastIndex = at + 1;
    const match = pattern.exec(text);
    if (match !== null && pattern.lastIndex <= to) {
      found.push({ kind: 'autolink', href: prefix + match[0].slice(0, -1), offset: at });
      return pattern.lastIndex;
    }
  }
  const html = htmlAt(text, at, to);
  if (html === undefined) return at + 1;
  if (html.link !== undefined) found.push({ kind: 'html', ...html.link });
  return html.end;
}

/**
 * A `]`: the link or image it closes with the nearest opener, if a destination follows; or the
 * reference (`[text][label]`, `[label][]`, `[label]`) to a defined label, which names no address here
 * (its definition does) but is a link all the same.
 */
function closeBracket(
  text: string,
  at: number,
  to: number,
  openers: Opener[],
  found: FoundLink[],
  labels: ReadonlySet<string>,
): number {
  const opener = openers.pop();
  if (opener === undefined || !opener.active) return at + 1;
  if (text.charCodeAt(at + 1) === 0x28) {
    const destination = inlineDestination(text, at + 2, to);
    if (destination !== undefined) {
      closeLink(opener, openers, found);
      found.push({ kind: opener.image ? 'image' : 'link', href: destination.href, offset: opener.at });
      return destination.end;
    }
  }
  const textStart = opener.at + (opener.image ? 2 : 1);
  let label = text.slice(textStart, at);
  let end = at + 1;
  if (text.charCodeAt(at + 1) === 0x5b) {
    const close = text.indexOf(']', at + 2);
    if (close >= 0 && close < to && !text.slice(at + 2, close).includes('[')) {
      if (close > at + 2) label = text.slice(at + 2, close);
      end = close + 1;
    }
  }
  if (!labels.has(normalizedLabel(label))) return at + 1;
  closeLink(opener, openers, found);
  return end;
}

/** What a closed link or image holds: an image's alt is text, a link's keeps all but bare addresses. */
function closeLink(opener: Opener, openers: readonly Opener[], found: FoundLink[]): void {
  let inside = found.length;
  while (inside > 0 && (found[inside - 1]?.offset ?? 0) > opener.at) inside -= 1;
  if (inside < found.length) {
    const kept = found.splice(inside).filter((link) => !opener.image && link.kind !== 'literal');
    found.push(...kept);
  }
  // Links hold no links: every earlier `[` can no longer open one.
  if (!opener.image) for (const earlier of openers) if (!earlier.image) earlier.active = false;
}

/** A reference label as CommonMark matches it: case-folded, whitespace runs as one space. */
export function normalizedLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase().toUpperCase();
}

/**
 * The destination of `(destination "title")` starting after its `(`, and the offset past its `)`;
 * undefined when the parenthesis does not hold a valid one.
 */
function inlineDestination(
  text: string,
  from: number,
  to: number,
): { href: string; end: number } | undefined {
  let at = pastSpace(text, from, to);
  let raw: string;
  if (text.charCodeAt(at) === 0x3c) {
    const start = at + 1;
    for (at = start; at < to; at += 1) {
      const code = text.charCodeAt(at);
      if (code === 0x5c) at += 1;
      else if (code === 0x3e || code === 0x3c || code === 0x0a || code === 0x0d) break;
    }
    if (text.charCodeAt(at) !== 0x3e || at >= to) return undefined;
    raw = text.slice(start, at);
    at += 1;
  } else {
    const start = at;
    let depth = 0;
    for (; at < to; at += 1) {
      const code = text.charCodeAt(at);
      if (code <= 0x20 || code === 0x7f) break;
      if (code === 0x5c && at + 1 < to && isAsciiPunctuation(text.charCodeAt(at + 1))) at += 1;
      else if (code === 0x28) depth += 1;
      else if (code === 0x29) {
        if (depth === 0) break;
        depth -= 1;
      }
    }
    if (depth !== 0) return undefined;
    raw = text.slice(start, at);
  }
  const beforeTitle = at;
  at = pastSpace(text, at, to);
  if (at > beforeTitle) at = pastTitle(text, at, to) ?? at;
  at = pastSpace(text, at, to);
  if (at >= to || text.charCodeAt(at) !== 0x29) return undefined;
  return { href: decodeDestination(raw), end: at + 1 };
}
