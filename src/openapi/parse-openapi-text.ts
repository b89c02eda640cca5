// The one reader of OpenAPI text, shared by docsync and the local service: JSON, or YAML, within
// explicit limits, refusing duplicate keys, so that what docsync validates is what the service parses.
import { LineCounter, parseDocument } from 'yaml';

export type TextFormat = 'json' | 'yaml';

export interface TextLimits {
  /** YAML alias expansions, as the `yaml` package counts them: far above real specs, far below a "billion laughs". */
  maxAliasCount: number;
  /** Objects and arrays nested in one another at most: real specs stay under 40, even dereferenced. */
  maxDepth: number;
}

export const OPENAPI_TEXT_LIMITS: Readonly<TextLimits> = { maxAliasCount: 10_000, maxDepth: 256 };

export type TextProblemKind = 'syntax' | 'duplicate-key' | 'aliases' | 'depth';

export interface TextProblem {
  kind: TextProblemKind;
  /** What is wrong, where (line and column when known), and what to do; read after the file's name. */
  message: string;
  line?: number;
  column?: number;
  /** The key written twice, for a `duplicate-key`. */
  key?: string;
}

/**
 * A text refused: `problem` is the first reason, `problems` every one found (each duplicate key of
 * the document; a single problem of any other kind, after which nothing further is read).
 */
export type ParsedText =
  | { ok: true; value: unknown; format: TextFormat }
  | { ok: false; problem: TextProblem; problems: readonly TextProblem[] };

export function parseOpenApiText(text: string, limits: TextLimits = OPENAPI_TEXT_LIMITS): ParsedText {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return parseJson(source, limits) ?? parseYaml(source, limits);
}

/**
 * Whether `value` nests objects and lists deeper than `maxDepth` (found without recursion). A value
 * that contains itself (a YAML alias inside its own anchor) nests without end, so it does too.
 */
export function depthBeyond(value: unknown, maxDepth: number): boolean {
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= maxDepth) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node))
      if (typeof child === 'object' && child !== null) stack.push({ node: child, depth: depth + 1 });
  }
  return false;
}

function parseJson(text: string, limits: TextLimits): ParsedText | undefined {
  const start = text.charCodeAt(firstNonSpace(text));
  if (start !== 0x7b && start !== 0x5b) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON, perhaps YAML in flow style: the YAML parser decides, and says where it fails.
    return undefined;
  }
  const problems = checkJsonKeys(text, limits.maxDepth);
  return problems.length === 0 ? { ok: true, value, format: 'json' } : refused(problems);
}

/** Objects with more keys than this get a Set; smaller ones are searched in a list, which is faster. */
const LIST_KEYS = 12;

/**
 * Duplicate keys (every one) and nesting of a text JSON.parse accepted (it keeps the last of
 * duplicate keys without a word). One pass over the characters; the key lists are reused per depth.
 */
function checkJsonKeys(text: string, maxDepth: number): TextProblem[] {
  const duplicates: TextProblem[] = [];
  // Per depth, reused from one object to the next: the keys of the object open at that depth.
  const lists: string[][] = [];
  const sets: Array<Set<string>> = [];
  /** Per depth: whether the open object has outgrown its list into its set. */
  const large: boolean[] = [];
  /** Per depth: whether the open container is an object (true) or an array. */
  const objects: boolean[] = [];
  let depth = 0;
  let expectKey = false;
  const length = text.length;
  for (let i = 0; i < length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      const start = i;
      // indexOf runs far faster than a loop over the characters of long strings.
      i = text.indexOf('"', i + 1);
      while (isEscaped(text, i)) i = text.indexOf('"', i + 1);
      if (!expectKey) continue;
      expectKey = false;
      const raw = text.slice(start + 1, i);
      const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
      const list = lists[depth] as string[];
      if (large[depth] === true) {
        const set = sets[depth] as Set<string>;
        if (set.has(key)) duplicates.push(duplicateKey(text, key, start));
        set.add(key);
      } else if (list.includes(key)) duplicates.push(duplicateKey(text, key, start));
      else if (list.length < LIST_KEYS) list.push(key);
      else {
        const set = sets[depth] ?? new Set<string>();
        sets[depth] = set;
        for (const known of list) set.add(known);
        set.add(key);
        large[depth] = true;
      }
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > maxDepth) return [tooDeep(text, i, maxDepth)];
      objects[depth] = code === 0x7b;
      expectKey = code === 0x7b;
      if (code === 0x7b) {
        const list = lists[depth] ?? [];
        lists[depth] = list;
        list.length = 0;
        if (large[depth] === true) (sets[depth] as Set<string>).clear();
        large[depth] = false;
      }
    } else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
      expectKey = false;
    } else if (code === 0x2c) {
      expectKey = objects[depth] === true;
    }
  }
  return duplicates;
}

function refused(problems: readonly TextProblem[]): ParsedText {
  return { ok: false, problem: problems[0] as TextProblem, problems };
}

/** Whether the quote at `index` is escaped: preceded by an odd number of backslashes. */
function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; text.charCodeAt(i) === 0x5c; i -= 1) backslashes += 1;
  return backslashes % 2 === 1;
}

function parseYaml(text: string, limits: TextLimits): ParsedText {
  const lineCounter = new LineCounter();
  let document: ReturnType<typeof parseDocument>;
  try {
    // parseDocument rather than parse: errors are read here, and warnings are never printed.
    document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  } catch (error) {
    if (error instanceof RangeError) return refused([depthProblem(limits.maxDepth)]);
    throw error;
  }
  const error = document.errors.find((found) => found.code !== 'DUPLICATE_KEY');
  if (error !== undefined) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    return refused([
      {
        kind: 'syntax',
        message: `is neither JSON nor YAML (line ${line}, column ${col}: ${firstLine(error.message)})`,
        line,
        column: col,
      },
    ]);
  }
  if (document.errors.length > 0)
    return refused(
      document.errors.map((duplicate) => {
        const { line, col } = lineCounter.linePos(duplicate.pos[0]);
        return duplicateProblem(keyAt(text, duplicate.pos[0]), line, col);
      }),
    );
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: limits.maxAliasCount });
  } catch (cause) {
    if (cause instanceof RangeError) return refused([depthProblem(limits.maxDepth)]);
    // toJS throws a ReferenceError past maxAliasCount, the guard against exponential documents.
    return refused([
      {
        kind: 'aliases',
        message: `cannot be read as YAML (${firstLine((cause as Error).message)}): its aliases expand past ${limits.maxAliasCount} nodes; write the repeated parts out or use $ref`,
      },
    ]);
  }
  if (depthBeyond(value, limits.maxDepth)) return refused([depthProblem(limits.maxDepth)]);
  return { ok: true, value, format: 'yaml' };
}

function duplicateKey(text: string, key: string, offset: number): TextProblem {
  const { line, column } = position(text, offset);
  return duplicateProblem(key, line, column);
}

const DUPLICATE_FIX = 'parsers keep only one of them, so remove or rename one';

/** A duplicate key's message without its place, for those that show the place before it. */
export function duplicateKeyMessage(key: string): string {
  return `has the key ${JSON.stringify(key)} twice in one object: ${DUPLICATE_FIX}`;
}

function duplicateProblem(key: string, line: number, column: number): TextProblem {
  return {
    kind: 'duplicate-key',
    message: `has the key ${JSON.stringify(key)} twice in one object (line ${line}, column ${column}): ${DUPLICATE_FIX}`,
    line,
    column,
    key,
  };
}

function tooDeep(text: string, offset: number, maxDepth: number): TextProblem {
  const { line, column } = position(text, offset);
  return {
    ...depthProblem(maxDepth),
    message: `${depthProblem(maxDepth).message} (line ${line}, column ${column})`,
    line,
    column,
  };
}

function depthProblem(maxDepth: number): TextProblem {
  return {
    kind: 'depth',
    message: `nests objects and lists more than ${maxDepth} deep, or has an alias inside its own anchor: flatten it with $ref`,
  };
}

/** The key written at `offset` of a YAML text, for the message: up to its colon. */
function keyAt(text: string, offset: number): string {
  const rest = text.slice(offset, offset + 200);
  const end = rest.search(/:(\s|$)|\n/);
  const raw = (end === -1 ? rest : rest.slice(0, end)).trim();
  return raw.replace(/^(["'])(.*)\1$/, '$2');
}

/** Line and column (from 1) of an offset in the text. */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

function firstNonSpace(text: string): number {
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break;
    i += 1;
  }
  return i;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
