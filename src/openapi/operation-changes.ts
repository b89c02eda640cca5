// What a new version of a spec changes, operation by operation: each operation (`GET /pets/{id}`)
// gets a fingerprint of everything that defines it, referenced components included, and two sets
// of fingerprints give the operations added, removed and changed: the first lines of a changelog.
import { createHash } from 'node:crypto';

export interface OperationChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'] as const;

/** `$ref` expansions per operation at most; refs past it are fingerprinted as written. */
export const MAX_REF_EXPANSIONS = 10_000;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function operationFingerprints(document: Record<string, unknown>): Record<string, string> {
  const fingerprints: Record<string, string> = {};
  const paths = document.paths;
  if (typeof paths !== 'object' || paths === null || Array.isArray(paths)) return fingerprints;
  for (const [path, written] of Object.entries(paths as Record<string, unknown>)) {
    if (path.startsWith('x-')) continue;
    const item = followRef(document, written);
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const defining = {
        operation,
        ...(item.parameters === undefined ? {} : { parameters: item.parameters }),
        ...(item.servers === undefined ? {} : { servers: item.servers }),
      };
      const budget = { left: MAX_REF_EXPANSIONS };
      const inlined = inline(document, defining, [], budget);
      fingerprints[`${method.toUpperCase()} ${path}`] = createHash('sha256')
        .update(canonicalJson(inlined))
        .digest('hex')
        .slice(0, 16);
    }
  }
  return fingerprints;
}

export function diffOperations(
  before: Record<string, string> | undefined,
  after: Record<string, string>,
): OperationChanges {
  const previous = before ?? {};
  const added = Object.keys(after).filter((key) => !(key in previous));
  const removed = Object.keys(previous).filter((key) => !(key in after));
  const changed = Object.keys(after).filter((key) => key in previous && previous[key] !== after[key]);
  return { added: sortOperations(added), removed: sortOperations(removed), changed: sortOperations(changed) };
}

export function summariseOperationChanges(changes: OperationChanges, limit = 20): string[] {
  const lines = [
    ...changes.added.map((operation) => `added ${operation}`),
    ...changes.changed.map((operation) => `changed ${operation}`),
    ...changes.removed.map((operation) => `removed ${operation}`),
  ];
  if (lines.length <= limit) return lines;
  const kept = lines.slice(0, Math.max(0, limit - 1));
  return [...kept, `… and ${lines.length - kept.length} more`];
}

/** By path, then by method in the usual order. */
function sortOperations(operations: string[]): string[] {
  const split = (operation: string) => {
    const space = operation.indexOf(' ');
    return { method: operation.slice(0, space).toLowerCase(), path: operation.slice(space + 1) };
  };
  return operations.sort((a, b) => {
    const x = split(a);
    const y = split(b);
    if (x.path !== y.path) return x.path < y.path ? -1 : 1;
    return (
      METHODS.indexOf(x.method as (typeof METHODS)[number]) -
      METHODS.indexOf(y.method as (typeof METHODS)[number])
    );
  });
}

/** Inlines internal `$ref`s; a ref already being inlined (recursion) or past the budget stays as is. */
function inline(
  document: Record<string, unknown>,
  value: unknown,
  stack: string[],
  budget: { left: number },
): Json {
  if (Array.isArray(value)) return value.map((item) => inline(document, item, stack, budget));
  if (!isObject(value)) return (value ?? null) as Json;
  const ref = value.$ref;
  if (typeof ref === 'string' && ref.startsWith('#') && !stack.includes(ref) && budget.left > 0) {
    const target = resolvePointer(document, ref);
    if (target !== undefined) {
      budget.left -= 1;
      const { $ref: _, ...siblings } = value;
      const expanded = inline(document, target, [...stack, ref], budget);
      return Object.keys(siblings).length === 0
        ? expanded
        : { $inlined: expanded, ...(inline(document, siblings, stack, budget) as Record<string, Json>) };
    }
  }
  const out: Record<string, Json> = {};
  for (const [key, child] of Object.entries(value)) out[key] = inline(document, child, stack, budget);
  return out;
}

function followRef(document: Record<string, unknown>, value: unknown): unknown {
  if (isObject(value) && typeof value.$ref === 'string' && value.$ref.startsWith('#'))
    return resolvePointer(document, value.$ref) ?? value;
  return value;
}

function resolvePointer(document: Record<string, unknown>, ref: string): unknown {
  const pointer = decodeURIComponent(ref.slice(1));
  if (pointer === '') return document;
  if (!pointer.startsWith('/')) return undefined;
  let node: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

/** JSON with object keys sorted, so that the order a document is written in does not matter. */
function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] as Json)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
