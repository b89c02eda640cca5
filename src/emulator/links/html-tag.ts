// Raw HTML in markdown, as CommonMark delimits it: an open tag with its attributes, a closing tag,
// a comment, a processing instruction, a declaration or CDATA. The link finder needs where each ends
// (nothing inside is markdown) and, of `<a>` and `<img>`, the `href` or `src` value and where it is.
import { decodeDestination } from './decode-destination.js';

export interface HtmlConstruct {
  /** The offset just past its end. */
  end: number;
  /** The address of an `<a href>` or `<img src>` open tag, resolved, and where its value starts. */
  link?: { href: string; offset: number };
}

const TAG_NAME = /[A-Za-z][A-Za-z0-9-]*/y;
const ATTRIBUTE_NAME = /[A-Za-z_:][A-Za-z0-9_.:-]*/y;
const UNQUOTED_VALUE = /[^\s"'=<>`]+/y;
const WHITESPACE = /[ \t\r\n\f\v]*/y;
const CLOSING_TAG = /\/[A-Za-z][A-Za-z0-9-]*[ \t\r\n\f\v]*>/y;

/** The HTML construct starting at the `<` at `at`, ending before `to`; undefined when it is none. */
export function htmlAt(text: string, at: number, to: number): HtmlConstruct | undefined {
  const next = text.charCodeAt(at + 1);
  if (next === 0x2f) return sticky(CLOSING_TAG, text, at + 1, to);
  if (next === 0x21) return special(text, at, to);
  if (next === 0x3f) return until(text, at + 2, to, '?>');
  return openTag(text, at, to);
}

function openTag(text: string, at: number, to: number): HtmlConstruct | undefined {
  TAG_NAME.lastIndex = at + 1;
  const name = TAG_NAME.exec(text);
  if (name === null) return undefined;
  const tag = name[0].toLowerCase();
  const wanted = tag === 'a' ? 'href' : tag === 'img' ? 'src' : undefined;
  let link: HtmlConstruct['link'];
  let p = at + 1 + name[0].length;
  for (;;) {
    const spaced = skip(WHITESPACE, text, p);
    if (spaced >= to) return undefined;
    const code = text.charCodeAt(spaced);
    if (code === 0x3e) return withLink(spaced + 1, to, link);
    if (code === 0x2f)
      return text.charCodeAt(spaced + 1) === 0x3e ? withLink(spaced + 2, to, link) : undefined;
    // An attribute needs whitespace before it.
    if (spaced === p) return undefined;
    ATTRIBUTE_NAME.lastIndex = spaced;
    const attribute = ATTRIBUTE_NAME.exec(text);
    if (attribute === null) return undefined;
    p = spaced + attribute[0].length;
    const beforeEquals = skip(WHITESPACE, text, p);
    if (text.charCodeAt(beforeEquals) !== 0x3d) continue;
    const valueAt = skip(WHITESPACE, text, beforeEquals + 1);
    const quote = text.charCodeAt(valueAt);
    let value: { start: number; end: number; next: number };
    if (quote === 0x22 || quote === 0x27) {
      const close = text.indexOf(quote === 0x22 ? '"' : "'", valueAt + 1);
      if (close < 0 || close >= to) return undefined;
      value = { start: valueAt + 1, end: close, next: close + 1 };
    } else {
      UNQUOTED_VALUE.lastIndex = valueAt;
      const unquoted = UNQUOTED_VALUE.exec(text);
      if (unquoted === null) return undefined;
      const end = valueAt + unquoted[0].length;
      value = { start: valueAt, end, next: end };
    }
    if (link === undefined && wanted !== undefined && attribute[0].toLowerCase() === wanted) {
      const raw = text.slice(value.start, value.end);
      const trimmed = raw.trim();
      link = {
        href: decodeDestination(trimmed, false),
        offset: value.start + (trimmed === '' ? 0 : raw.indexOf(trimmed)),
      };
    }
    p = value.next;
  }
}

function withLink(end: number, to: number, link: HtmlConstruct['link']): HtmlConstruct | undefined {
  if (end > to) return undefined;
  return link === undefined ? { end } : { end, link };
}

/** `<!-- -->`, `<![CDATA[ ]]>` and `<!DOCTYPE ...>`. */
function special(text: string, at: number, to: number): HtmlConstruct | undefined {
  if (text.startsWith('<!--', at)) {
    // `<!-->` and `<!--->` are whole (empty) comments.
    if (text.startsWith('>', at + 4)) return { end: at + 5 };
    if (text.startsWith('->', at + 4)) return { end: at + 6 };
    return until(text, at + 4, to, '-->');
  }
  if (text.startsWith('<![CDATA[', at)) return until(text, at + 9, to, ']]>');
  const letter = text.charCodeAt(at + 2);
  if ((letter >= 0x41 && letter <= 0x5a) || (letter >= 0x61 && letter <= 0x7a))
    return until(text, at + 2, to, '>');
  return undefined;
}

function until(text: string, from: number, to: number, end: string): HtmlConstruct | undefined {
  const found = text.indexOf(end, from);
  return found < 0 || found + end.length > to ? undefined : { end: found + end.length };
}

function sticky(pattern: RegExp, text: string, at: number, to: number): HtmlConstruct | undefined {
  pattern.lastIndex = at;
  const match = pattern.exec(text);
  if (match === null || at + match[0].length > to) return undefined;
  return { end: at + match[0].length };
}

function skip(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  pattern.exec(text);
  return pattern.lastIndex === 0 ? at : Math.max(at, pattern.lastIndex);
}
