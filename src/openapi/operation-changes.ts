// What a new version of a spec changes, operation by operation: each operation (`GET /pets/{id}`)
// gets a fingerprint of everything that defines it, referenced components included, and two sets
// of fingerprints give the operations added, removed and changed: the first lines of a changelog.
import { createHash } from 'node:crypto';

export interface OperationChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

/** The operations of a path item, in the order a changelog lists them; `query` is OpenAPI 3.2's. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'] as const;

/**
 * `$ref` expansions per operation at most. A schema is expanded again at every use, so schemas
 * that reference each other widely could otherwise cost work exponential in their depth. Refs past
 * the cap are fingerprinted as written: a change behind them goes unseen, which no real spec
 * comes near.
 */
const MAX_REF_EXPANSIONS = 10_000;

/** Refs inlined inside one another at most, so that a long chain of schemas cannot overflow the stack. */
const MAX_REF_DEPTH = 500;

/** Path item `$ref`s followed at most before the item is taken as it stands. */
const MAX_PATH_ITEM_HOPS = 16;

/** Stands for a value met again inside itself: YAML aliases can build such values, without any `$ref`. */
const CIRCULAR = '"[circular]"';

export function operationFingerprints(document: Record<string, unknown>): Record<string, string> {
  const fingerprints: Record<string, string> = {};
  const paths = document.paths;
  if (!isObject(paths)) return fingerprints;
  for (const [path, written] of Object.entries(paths)) {
    if (path.startsWith('x-')) continue;
    const item = pathItemOf(document, written);
    if (item === undefined) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const defining = { operation, parameters: item.parameters, servers: item.servers };
      fingerprints[`${method.toUpperCase()} ${path}`] = fingerprintOf(document, defining);
    }
  }
  return fingerprints;
}

export function diffOperations(
  before: Record<string, string> | undefined,
  after: Record<string, string>,
): OperationChanges {
  const previous = before ?? {};
  const operations = Object.keys(after);
  return {
    added: sortOperations(operations.filter((key) => !Object.hasOwn(previous, key))),
    removed: sortOperations(Object.keys(previous).filter((key) => !Object.hasOwn(after, key))),
    changed: sortOperations(
      operations.filter((key) => Object.hasOwn(previous, key) && previous[key] !== after[key]),
    ),
  };
}

export function summariseOperationChanges(changes: OperationChanges, limit = 20): string[] {
  const lines = [
    ...changes.added.map((operation) => `added ${operation}`),
    ...changes.changed.map((operation) => `changed ${operation}`),
    ...changes.removed.map((operation) => `removed ${operation}`),
  ];
  if (lines.length <= limit) return lines;
  if (limit < 1) return [];
  const kept = lines.slice(0, limit - 1);
  return [...kept, `… and ${lines.length - kept.length} more`];
}

const METHOD_RANK = new Map<string, number>(METHODS.map((method, rank) => [method.toUpperCase(), rank]));

/** By path, then by method in the usual order (`GET` before `POST`). */
function sortOperations(operations: string[]): string[] {
  const split = (operation: string) => {
    const space = operation.indexOf(' ');
    const method = operation.slice(0, space);
    return { method, rank: METHOD_RANK.get(method) ?? METHODS.length, path: operation.slice(space + 1) };
  };
  return operations.sort((a, b) => {
    const x = split(a);
    const y = split(b);
    if (x.path !== y.path) return x.path < y.path ? -1 : 1;
    if (x.rank !== y.rank) return x.rank - y.rank;
    return x.method < y.method ? -1 : x.method > y.method ? 1 : 0;
  });
}

/** A path item, through its internal `$ref`s if it has any; fields written beside a `$ref` win. */
function pathItemOf(
  document: Record<string, unknown>,
  written: unknown,
): Record<string, unknown> | undefined {
  let item = written;
  for (let hop = 0; hop < MAX_PATH_ITEM_HOPS && isObject(item); hop += 1) {
    const { $ref: ref, ...siblings } = item;
    const target = typeof ref === 'string' && ref.startsWith('#') ? resolvePointer(document, ref) : undefined;
    if (!isObject(target)) break;
    item = { ...target, ...siblings };
  }
  return isObject(item) ? item : undefined;
}

/** sha256 of the canonical JSON of `value`, first 16 hex digits. */
function fingerprintOf(document: Record<string, unknown>, value: unknown): string {
  const hash = createHash('sha256');
  let pending = '';
  writeCanonical(document, value, (text) => {
    pending += text;
    if (pending.length >= 65_536) {
      hash.update(pending);
      pending = '';
    }
  });
  return hash.update(pending).digest('hex').slice(0, 16);
}

/**
 * Writes `value` as JSON with object keys sorted, so that the order a document is written in does
 * not matter, and internal `$ref`s replaced by what they point to (beside siblings such as
 * `description`, the target takes the place of the ref's text). A ref already being inlined (a
 * recursive schema), past the caps, or pointing nowhere is written as it stands. Keys are walked
 * in sorted order too, so that which refs the cap leaves as written does not depend on key order.
 */
function writeCanonical(document: Record<string, unknown>, value: unknown, out: (text: string) => void) {
  const inlining = new Set<string>();
  const walking = new Set<object>();
  let expansionsLeft = MAX_REF_EXPANSIONS;

  const expansionOf = (ref: string): { ref: string; target: unknown } | undefined => {
    if (!ref.startsWith('#') || inlining.has(ref)) return undefined;
    if (expansionsLeft <= 0 || inlining.size >= MAX_REF_DEPTH) return undefined;
    const target = resolvePointer(document, ref);
    if (target === undefined) return undefined;
    expansionsLeft -= 1;
    return { ref, target };
  };

  const writeExpansion = ({ ref, target }: { ref: string; target: unknown }) => {
    inlining.add(ref);
    write(target);
    inlining.delete(ref);
  };

  const writeObject = (object: Record<string, unknown>) => {
    const expansion = typeof object.$ref === 'string' ? expansionOf(object.$ref) : undefined;
    const keys = Object.keys(object)
      .filter((key) => object[key] !== undefined)
      .sort();
    if (expansion !== undefined && keys.length === 1) {
      writeExpansion(expansion);
      return;
    }
    out('{');
    keys.forEach((key, index) => {
      out(`${index === 0 ? '' : ','}${JSON.stringify(key)}:`);
      if (key === '$ref' && expansion !== undefined) writeExpansion(expansion);
      else write(object[key]);
    });
    out('}');
  };

  const writeArray = (array: unknown[]) => {
    out('[');
    array.forEach((item, index) => {
      if (index > 0) out(',');
      write(item);
    });
    out(']');
  };

  const write = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) out(scalarJson(node));
    else if (walking.has(node)) out(CIRCULAR);
    else {
      walking.add(node);
      if (isObject(node)) writeObject(node);
      else if (Array.isArray(node)) writeArray(node);
      walking.delete(node);
    }
  };

  write(value);
}

function scalarJson(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return JSON.stringify(value);
  if (typeof value === 'bigint') return value.toString();
  return 'null';
}

/** The value an internal `$ref` (`#/components/schemas/Pet`) points to, or undefined. */
function resolvePointer(document: Record<string, unknown>, ref: string): unknown {
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (pointer === '') return document;
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = /^(0|[1-9]\d*)$/.test(token) ? node[Number(token)] : undefined;
    else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
