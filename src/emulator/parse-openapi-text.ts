// Whether a text is an OpenAPI (or Swagger) document, read as the service reads one: JSON, or YAML,
// whose top level is an object with an `openapi` or `swagger` member. Refused, as the service
// refuses them: keys written twice in one object, YAML aliases expanding past a limit, and nesting
// past a limit. The client keeps its own reader with the same limits, so that what it validated
// before an upload the service takes.
import { parseDocument } from 'yaml';

/** YAML alias expansions the service takes: far above real specs, far below a "billion laughs". */
export const MAX_ALIAS_COUNT = 10_000;
/** Objects and lists nested in one another at most: real specs stay under 40, even dereferenced. */
export const MAX_DEPTH = 256;

export type ParsedOpenApi =
  | { ok: true; document: Record<string, unknown>; format: 'json' | 'yaml' }
  /** Not JSON nor YAML, or refused by a limit: `message` says why, for the log. */
  | { ok: false; reason: 'syntax'; message: string }
  | { ok: false; reason: 'not-openapi' };

type ReadText = { ok: true; value: unknown; format: 'json' | 'yaml' } | { ok: false; message: string };

export function parseOpenApiText(text: string): ParsedOpenApi {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const read = readJson(source) ?? readYaml(source);
  if (!read.ok) return { ok: false, reason: 'syntax', message: read.message };
  const { value, format } = read;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, reason: 'not-openapi' };
  const document = value as Record<string, unknown>;
  if (!('openapi' in document) && !('swagger' in document)) return { ok: false, reason: 'not-openapi' };
  return { ok: true, document, format };
}

/** A text that starts as JSON and parses as JSON; undefined for the YAML reader to decide. */
function readJson(text: string): ReadText | undefined {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Perhaps YAML in flow style: the YAML reader decides.
    return undefined;
  }
  const problem = jsonKeyProblem(text);
  return problem === undefined ? { ok: true, value, format: 'json' } : { ok: false, message: problem };
}

/**
 * The first key written twice in one object, or nesting past MAX_DEPTH, of a text JSON.parse took
 * (it keeps the last of duplicate keys without a word). One pass over the characters.
 */
function jsonKeyProblem(text: string): string | undefined {
  // Per open container: the keys of an object so far, or null for a list.
  const open: Array<Set<string> | null> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '"') {
      const start = i;
      i = closingQuote(text, i);
      if (!expectKey) continue;
      expectKey = false;
      const raw = text.slice(start + 1, i);
      const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
      const keys = open.at(-1) as Set<string>;
      if (keys.has(key)) return `has the key ${JSON.stringify(key)} twice in one object`;
      keys.add(key);
    } else if (char === '{' || char === '[') {
      if (open.length === MAX_DEPTH) return `nests objects and lists more than ${MAX_DEPTH} deep`;
      open.push(char === '{' ? new Set() : null);
      expectKey = char === '{';
    } else if (char === '}' || char === ']') {
      open.pop();
      expectKey = false;
    } else if (char === ',') {
      expectKey = open.at(-1) instanceof Set;
    }
  }
  return undefined;
}

/** The index of the quote closing the string opened at `index`: the next one not escaped. */
function closingQuote(text: string, index: number): number {
  let i = text.indexOf('"', index + 1);
  while (escaped(text, i)) i = text.indexOf('"', i + 1);
  return i;
}

function escaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; text[i] === '\\'; i -= 1) backslashes += 1;
  return backslashes % 2 === 1;
}

function readYaml(text: string): ReadText {
  let document: ReturnType<typeof parseDocument>;
  try {
    // parseDocument rather than parse: errors are read here, and warnings are never printed.
    document = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, message: tooDeep() };
    throw error;
  }
  const [error] = document.errors;
  if (error !== undefined)
    return { ok: false, message: `is neither JSON nor YAML (${firstLine(error.message)})` };
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (cause) {
    if (cause instanceof RangeError) return { ok: false, message: tooDeep() };
    // toJS throws a ReferenceError past maxAliasCount, the guard against exponential documents.
    return { ok: false, message: `has aliases that expand past ${MAX_ALIAS_COUNT} nodes` };
  }
  return deeperThan(value, MAX_DEPTH)
    ? { ok: false, message: tooDeep() }
    : { ok: true, value, format: 'yaml' };
}

/**
 * Whether `value` nests objects and lists deeper than `maxDepth`, found without recursion. A value
 * that holds itself (a YAML alias inside its own anchor) nests without end, so it does too.
 */
function deeperThan(value: unknown, maxDepth: number): boolean {
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node, depth } = item;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= maxDepth) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node))
      if (typeof child === 'object' && child !== null) stack.push({ node: child, depth: depth + 1 });
  }
  return false;
}

function tooDeep(): string {
  return `nests objects and lists more than ${MAX_DEPTH} deep, or has an alias inside its own anchor`;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
