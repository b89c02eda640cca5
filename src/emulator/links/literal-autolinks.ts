// GFM's bare addresses in text, which render as links: `https://x.y/z`, `www.x.y` (an http address)
// and `name@x.y` (a mail address). Trailing punctuation and an unbalanced `)` end them, as GFM says.

export interface LiteralAutolink {
  href: string;
  /** Where the address starts (for a mail address, before the `@` that found it). */
  offset: number;
  /** The offset just past it. */
  end: number;
}

const HTTP = /https?:\/\//iy;
const WWW = /www\./iy;
const DOMAIN = /[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*/y;
const EMAIL_DOMAIN = /[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+/y;
const TRAILING_PUNCTUATION = /[?!.,:*_~'"]$/;
const TRAILING_ENTITY = /&[A-Za-z0-9]+;$/;

/**
 * The bare address at `at` in `text` (whose run of inline text starts at `from`), if one is there:
 * an `h` or `w` that starts one, or an `@` that joins a mail address.
 */
export function literalAutolinkAt(
  text: string,
  at: number,
  from: number,
  to: number,
): LiteralAutolink | undefined {
  const code = text.charCodeAt(at);
  if (code === 0x40) return emailAround(text, at, from, to);
  if (code !== 0x68 && code !== 0x48 && code !== 0x77 && code !== 0x57) return undefined;
  const www = code === 0x77 || code === 0x57;
  const before = at > from ? text.charCodeAt(at - 1) : -1;
  if (before >= 0 && !(www ? mayPrecedeWww(before) : !isAsciiLetter(before))) return undefined;
  const prefix = www ? WWW : HTTP;
  prefix.lastIndex = at;
  if (!prefix.test(text)) return undefined;
  const domainAt = prefix.lastIndex;
  DOMAIN.lastIndex = domainAt;
  const domain = DOMAIN.exec(text);
  if (domain === null || domainAt + domain[0].length > to || !validDomain(domain[0])) return undefined;
  let end = domainAt + domain[0].length;
  // The path: up to whitespace or `<`, and up to a `]` that a link's `(` or `[` follows.
  while (end < to) {
    const next = text.charCodeAt(end);
    if (next <= 0x20 || next === 0x3c) break;
    if (next === 0x5d) {
      const after = text.charCodeAt(end + 1);
      if (end + 1 >= to || after === 0x28 || after === 0x5b || after <= 0x20) break;
    }
    end += 1;
  }
  end = trimmedEnd(text, domainAt, end);
  const written = text.slice(at, end);
  return { href: www ? `http://${written}` : written, offset: at, end };
}

/** Before `www.`: whitespace, `*`, `_`, `~`, `(`, `[` or `]` (an `http` address: anything but a letter). */
function mayPrecedeWww(code: number): boolean {
  return (
    code <= 0x20 ||
    code === 0x2a ||
    code === 0x5f ||
    code === 0x7e ||
    code === 0x28 ||
    code === 0x5b ||
    code === 0x5d
  );
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** No underscore in the last two labels of the domain. */
function validDomain(domain: string): boolean {
  return !domain
    .split('.')
    .slice(-2)
    .some((label) => label.includes('_'));
}

/** The end of an address without its trailing punctuation, unbalanced `)` and entity references. */
function trimmedEnd(text: string, start: number, end: number): number {
  for (;;) {
    const written = text.slice(start, end);
    if (TRAILING_PUNCTUATION.test(written)) end -= 1;
    else if (written.endsWith(')') && count(written, ')') > count(written, '(')) end -= 1;
    else if (written.endsWith(';') && TRAILING_ENTITY.test(written))
      end -= TRAILING_ENTITY.exec(written)?.[0].length ?? 1;
    else return end;
  }
}

function count(text: string, character: string): number {
  let found = 0;
  for (let at = text.indexOf(character); at >= 0; at = text.indexOf(character, at + 1)) found += 1;
  return found;
}

const LOCAL_PART = /[A-Za-z0-9._+-]/;

/** The mail address around the `@` at `at`: `name@example.com` as `mailto:name@example.com`. */
function emailAround(text: string, at: number, from: number, to: number): LiteralAutolink | undefined {
  let start = at;
  while (start > from && LOCAL_PART.test(text[start - 1] ?? '')) start -= 1;
  if (start === at || (start > from && text.charCodeAt(start - 1) === 0x2f)) return undefined;
  EMAIL_DOMAIN.lastIndex = at + 1;
  const domain = EMAIL_DOMAIN.exec(text);
  if (domain === null) return undefined;
  let end = at + 1 + domain[0].length;
  if (end > to) return undefined;
  while (text.charCodeAt(end - 1) === 0x2e) end -= 1;
  const last = text.charCodeAt(end - 1);
  // GFM: the domain ends in neither `-`, `_` nor a digit: `name@2.0.0`, a version, is no address.
  if (
    last === 0x2d ||
    last === 0x5f ||
    (last >= 0x30 && last <= 0x39) ||
    !text.slice(at + 1, end).includes('.')
  )
    return undefined;
  return { href: `mailto:${text.slice(start, end)}`, offset: start, end };
}
