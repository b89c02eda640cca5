// A link destination as written to the address it names: backslash escapes of ASCII punctuation
// and character references (`&amp;`, `&#35;`, `&#x23;`) resolved, as CommonMark reads them.

/** Named references a link address plausibly holds; any other name is kept as written. */
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  lpar: '(',
  rpar: ')',
  lsqb: '[',
  rsqb: ']',
  lbrack: '[',
  rbrack: ']',
  num: '#',
  percnt: '%',
  quest: '?',
  sol: '/',
  bsol: '\\',
  colon: ':',
  equals: '=',
  excl: '!',
  period: '.',
  comma: ',',
  semi: ';',
  plus: '+',
  hyphen: '-',
  dash: '-',
  lowbar: '_',
  grave: '`',
  tilde: '~',
  ast: '*',
  commat: '@',
  dollar: '$',
  Hat: '^',
  verbar: '|',
  vert: '|',
  lcub: '{',
  rcub: '}',
  lbrace: '{',
  rbrace: '}',
  copy: '\u00a9',
  reg: '\u00ae',
};

const REFERENCE = /&(?:#([0-9]{1,7})|#[xX]([0-9A-Fa-f]{1,6})|([A-Za-z][A-Za-z0-9]{0,31}));/y;

export function isAsciiPunctuation(code: number): boolean {
  return (
    (code >= 0x21 && code <= 0x2f) ||
    (code >= 0x3a && code <= 0x40) ||
    (code >= 0x5b && code <= 0x60) ||
    (code >= 0x7b && code <= 0x7e)
  );
}

/** `text` with backslash escapes (when `escapes`) and character references resolved. */
export function decodeDestination(text: string, escapes = true): string {
  // Most addresses hold neither: returned as they are, without a copy.
  if ((!escapes || !text.includes('\\')) && !text.includes('&')) return text;
  let decoded = '';
  let from = 0;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (escapes && code === 0x5c && at + 1 < text.length && isAsciiPunctuation(text.charCodeAt(at + 1))) {
      decoded += text.slice(from, at);
      from = at + 1;
      at += 1;
    } else if (code === 0x26) {
      REFERENCE.lastIndex = at;
      const match = REFERENCE.exec(text);
      if (match === null) continue;
      const character = referenced(match);
      if (character === undefined) continue;
      decoded += text.slice(from, at) + character;
      at += match[0].length - 1;
      from = at + 1;
    }
  }
  return decoded + text.slice(from);
}

function referenced(match: RegExpExecArray): string | undefined {
  const [, decimal, hex, name] = match;
  if (name !== undefined) return NAMED[name];
  const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex ?? '', 16);
  // As CommonMark: NUL and what is not a code point read as the replacement character.
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(code);
}
