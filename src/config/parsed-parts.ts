// Checks across fields (a space claimed by two mappings, a token required by a listen address) run
// even when other fields have problems, so that `validate-config` and a refused start list every
// problem in one run: zod skips such a check once any field below it failed, and a file fixed field
// by field would show its cross-field problems only at the end. A check reads only the parts that
// parsed, the parts with no issue at or below them: their values are the schema's output, typed.
import type { z } from 'zod';

type Path = readonly PropertyKey[];
/** `continue`: zod's mark of an issue that leaves the value of its type (a refinement's), as zod reads it. */
type Issues = readonly {
  code?: string | undefined;
  path?: readonly PropertyKey[] | undefined;
  continue?: boolean | undefined;
}[];

function startsWith(path: readonly PropertyKey[], prefix: Path): boolean {
  return prefix.length <= path.length && prefix.every((key, depth) => path[depth] === key);
}

/**
 * Whether the value at `path` parsed: no issue at it or below it, and none at an object above it
 * but an unknown key (whose other keys were parsed all the same). A refinement's issue leaves the
 * value of its type and counts as parsed.
 */
export function parsed(issues: Issues, path: Path): boolean {
  return !issues.some((issue) => {
    if (issue.continue === true) return false;
    const at = issue.path ?? [];
    if (startsWith(at, path)) return true;
    return at.length < path.length && startsWith(path, at) && issue.code !== 'unrecognized_keys';
  });
}

/**
 * The items of the array at `path` that parsed, each at its own index, the others undefined: paths
 * and messages keep naming `mappings[3]`. No items when the array itself is not one.
 */
export function parsedItems<T>(issues: Issues, items: readonly T[], path: Path): (T | undefined)[] {
  if (!hasItsType(issues, path) || !Array.isArray(items)) return [];
  return items.map((item, index) => (parsed(issues, [...path, index]) ? item : undefined));
}

/**
 * Whether the value at `path` is of its schema's type (an array, an object), though parts below it
 * may not have parsed: no issue at it or above it but an unknown key or a refinement's.
 */
export function hasItsType(issues: Issues, path: Path): boolean {
  return !issues.some(
    (issue) =>
      issue.continue !== true && startsWith(path, issue.path ?? []) && issue.code !== 'unrecognized_keys',
  );
}

/**
 * For `.superRefine(check, whenParsed(...))`: the check runs when the fields it reads parsed, even
 * when others did not (zod's default: only when nothing failed).
 */
export function whenParsed(...paths: Path[]): { when: (payload: z.core.ParsePayload) => boolean } {
  return { when: (payload) => paths.every((path) => parsed(payload.issues, path)) };
}
