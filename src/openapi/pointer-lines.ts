// The line of a JSON pointer in the text of a document, for people fixing what a validation found:
// the line of the deepest part of the pointer the text has (a missing member is reported at its
// parent). JSON is scanned without building a tree, which is far faster than a YAML parse of it.
import { isAlias, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from 'yaml';

/** Given the text of a document, the line (from 1) of a pointer in it; undefined for the whole document. */
export function pointerLines(text: string): (pointer: string) => number | undefined {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = source.trimStart().charAt(0);
  const offsetOf = first === '{' || first === '[' ? jsonOffsets(source) : yamlOffsets(source);
  const starts = lineStarts(source);
  return (pointer) => {
    const tokens = pointerTokens(pointer);
    if (tokens.length === 0) return undefined;
    const offset = offsetOf(tokens);
    return offset === undefined ? undefined : lineAt(starts, offset);
  };
}

/** The tokens of a JSON pointer as validators write it (`/paths/~1pets/get`), not percent-encoded. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type OffsetOf = (tokens: readonly string[]) => number | undefined;

function yamlOffsets(text: string): OffsetOf {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  return (tokens) => {
    let node: unknown = document.contents;
    let offset: number | undefined;
    for (const token of tokens) {
      if (isAlias(node)) node = node.resolve(document);
      if (isMap(node)) {
        const pair = node.items.find(
          (item) => String(isScalar(item.key) ? item.key.value : item.key) === token,
        );
        if (pair === undefined) break;
        offset = (pair.key as Node | null)?.range?.[0] ?? offset;
        node = pair.value;
      } else if (isSeq(node)) {
        const item = /^(0|[1-9]\d*)$/.test(token) ? node.items[Number(token)] : undefined;
        if (item === undefined) break;
        offset = (item as Node | null)?.range?.[0] ?? offset;
        node = item;
      } else break;
    }
    return offset;
  };
}

function jsonOffsets(text: string): OffsetOf {
  return (tokens) => {
    let at = skipSpace(text, 0);
    let offset: number | undefined;
    for (const token of tokens) {
      const found = text.charCodeAt(at) === 0x7b ? memberOf(text, at, token) : itemOf(text, at, token);
      if (found === undefined) break;
      offset = found.key;
      at = found.value;
    }
    return offset;
  };
}

/** In the object opening at `at`: where the member `name` is written and where its value starts. */
function memberOf(text: string, at: number, name: string): { key: number; value: number } | undefined {
  let i = skipSpace(text, at + 1);
  while (text.charCodeAt(i) === 0x22) {
    const key = i;
    const end = stringEnd(text, i);
    const raw = text.slice(i + 1, end - 1);
    const decoded = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
    i = skipSpace(text, end);
    if (text.charCodeAt(i) !== 0x3a) return undefined;
    i = skipSpace(text, i + 1);
    if (decoded === name) return { key, value: i };
    i = skipSpace(text, valueEnd(text, i));
    if (text.charCodeAt(i) !== 0x2c) return undefined;
    i = skipSpace(text, i + 1);
  }
  return undefined;
}

function itemOf(text: string, at: number, token: string): { key: number; value: number } | undefined {
  if (text.charCodeAt(at) !== 0x5b || !/^(0|[1-9]\d*)$/.test(token)) return undefined;
  let i = skipSpace(text, at + 1);
  for (let index = 0; i < text.length && text.charCodeAt(i) !== 0x5d; index += 1) {
    if (index === Number(token)) return { key: i, value: i };
    i = skipSpace(text, valueEnd(text, i));
    if (text.charCodeAt(i) !== 0x2c) return undefined;
    i = skipSpace(text, i + 1);
  }
  return undefined;
}

/** Just past the value starting at `at`: a string, an object or array with all it holds, or a literal. */
function valueEnd(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code === 0x22) return stringEnd(text, at);
  if (code !== 0x7b && code !== 0x5b) {
    let i = at;
    while (i < text.length && !/[\s,\]}]/.test(text.charAt(i))) i += 1;
    return i;
  }
  let depth = 0;
  for (let i = at; i < text.length; i += 1) {
    const inner = text.charCodeAt(i);
    if (inner === 0x22) i = stringEnd(text, i) - 1;
    else if (inner === 0x7b || inner === 0x5b) depth += 1;
    else if (inner === 0x7d || inner === 0x5d) {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

/** Just past the closing quote of the string opening at `at`. */
function stringEnd(text: string, at: number): number {
  let i = text.indexOf('"', at + 1);
  while (i !== -1 && isEscaped(text, i)) i = text.indexOf('"', i + 1);
  return i === -1 ? text.length : i + 1;
}

function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; text.charCodeAt(i) === 0x5c; i -= 1) backslashes += 1;
  return backslashes % 2 === 1;
}

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break;
    i += 1;
  }
  return i;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The line (from 1) holding `offset`, by binary search of the lines' starts. */
function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}
