// What a new version of a spec changes, operation by operation, from the fingerprints of the last
// upload and of this one: operations added, removed, changed in their own text, and changed only
// through shared components they use (with those components named): the lines of a changelog,
// those of changes that break clients marked and listed first.
import { type BreakingChange, describeBreakingChange } from './breaking-changes.js';
import { METHODS, type OperationFingerprints } from './operation-fingerprints.js';

export interface OperationChanges {
  added: string[];
  removed: string[];
  /** Operations whose own text changed: the operation itself, or its path's parameters or servers. */
  changed: string[];
  /** Operations whose own text is the same, but that use a shared component that changed. */
  changedVia: Array<{ operation: string; components: string[] }>;
  /** Operations in both versions that could not be compared: the last upload predates component fingerprints. */
  uncompared: number;
}

/** What the last upload recorded: operation → `own.reached`, component → own hash. */
export interface RecordedFingerprints {
  operations: Record<string, string>;
  components?: Record<string, string> | undefined;
}

export function diffOperations(
  before: RecordedFingerprints | undefined,
  after: OperationFingerprints,
): OperationChanges {
  const previous = before?.operations ?? {};
  const current = after.operations;
  const changed: string[] = [];
  const changedVia: OperationChanges['changedVia'] = [];
  let uncompared = 0;
  // Few components change in a version, while an operation may reach hundreds of them.
  const changedComponents = new Set(
    Object.keys(after.components).filter(
      (component) => before?.components?.[component] !== after.components[component],
    ),
  );
  for (const [operation, fingerprint] of Object.entries(current)) {
    const old = previous[operation];
    if (old === undefined || old === fingerprint) continue;
    const [ownBefore, reachedBefore] = old.split('.');
    const [own, reached] = fingerprint.split('.');
    // A record from before component fingerprints: one hash of everything, comparable to nothing here.
    if (reachedBefore === undefined) uncompared += 1;
    else if (own !== ownBefore) changed.push(operation);
    else if (reached !== reachedBefore) {
      changedVia.push({ operation, components: [...after.reachedBy(operation, changedComponents)] });
    }
  }
  const byOperation = new Map(changedVia.map((entry) => [entry.operation, entry]));
  return {
    added: sortOperations(Object.keys(current).filter((key) => !Object.hasOwn(previous, key))),
    removed: sortOperations(Object.keys(previous).filter((key) => !Object.hasOwn(current, key))),
    changed: sortOperations(changed),
    changedVia: sortOperations([...byOperation.keys()]).map(
      (key) => byOperation.get(key) as { operation: string; components: string[] },
    ),
    uncompared,
  };
}

/** Components named in a changelog line at most; the rest are counted. */
const VIA_NAMED = 2;

/** Breaking changes described in one changelog line at most; the rest are counted. */
const BREAKING_NAMED = 2;

/**
 * The changelog's lines: `added GET /a`, `changed GET /b` (its own text), `removed DELETE /c`, then
 * `changed GET /d (via components/schemas/Pet)` for operations changed only through components.
 * Operations with `breaking` changes come first, marked: `removed DELETE /c (breaking)`,
 * `changed GET /b (breaking: query parameter limit is now required)`, so that a long changelog
 * never cuts them off. Past `limit` lines, the last one says how many more there are.
 */
export function summariseOperationChanges(
  changes: OperationChanges,
  limit = 20,
  breaking: readonly BreakingChange[] = [],
): string[] {
  const marks = new Map<string, BreakingChange[]>();
  for (const change of breaking) {
    const list = marks.get(change.operation) ?? [];
    list.push(change);
    marks.set(change.operation, list);
  }
  const listed = new Set([
    ...changes.changed,
    ...changes.removed,
    ...changes.changedVia.map((entry) => entry.operation),
  ]);
  const line = (text: string, operation: string, notes: readonly string[] = []) => {
    const found = marks.get(operation);
    const all = found === undefined ? notes : [...notes, breakingNote(found)];
    return { text: all.length === 0 ? text : `${text} (${all.join('; ')})`, breaking: found !== undefined };
  };
  const entries = [
    ...changes.added.map((operation) => line(`added ${operation}`, operation)),
    ...changes.changed.map((operation) => line(`changed ${operation}`, operation)),
    ...changes.removed.map((operation) => line(`removed ${operation}`, operation)),
    ...changes.changedVia.map(({ operation, components }) =>
      line(`changed ${operation}`, operation, [`via ${via(components)}`]),
    ),
    // Operations the fingerprints could not compare (an older record) but the contracts could.
    ...sortOperations([...marks.keys()].filter((operation) => !listed.has(operation))).map((operation) =>
      line(`changed ${operation}`, operation),
    ),
  ];
  const lines = [
    ...(changes.uncompared > 0
      ? [
          `${changes.uncompared} operations kept from the last upload not compared: it was recorded by an older docsync`,
        ]
      : []),
    ...entries.filter((entry) => entry.breaking).map((entry) => entry.text),
    ...entries.filter((entry) => !entry.breaking).map((entry) => entry.text),
  ];
  if (lines.length <= limit) return lines;
  if (limit < 1) return [];
  const kept = lines.slice(0, limit - 1);
  return [...kept, `… and ${lines.length - kept.length} more`];
}

/** `breaking` for a removed operation; else `breaking: ` and what breaks. */
function breakingNote(changes: readonly BreakingChange[]): string {
  if (changes.some((change) => change.kind === 'removed-operation')) return 'breaking';
  const named = changes.slice(0, BREAKING_NAMED).map(describeBreakingChange).join('; ');
  const more = changes.length - BREAKING_NAMED;
  return `breaking: ${named}${more > 0 ? `; and ${more} more` : ''}`;
}

function via(components: readonly string[]): string {
  if (components.length === 0) return 'shared components';
  const named = components.slice(0, VIA_NAMED).join(', ');
  const more = components.length - VIA_NAMED;
  return more > 0 ? `${named} and ${more} more` : named;
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
