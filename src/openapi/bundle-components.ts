// The `components` (or Swagger 2.0's `definitions`, `parameters`, `responses`) a bundle adds for
// the files its `$ref`s name, named as Redocly names them: after the last token of the pointer,
// else after the file without its extension, `-2`, `-3`... when a name is taken.
import { posix } from 'node:path';
import { isPlainObject, type Target } from './bundle-ref-sites.js';
import type { Trail } from './openapi-positions.js';

/** What a component's name may hold in OpenAPI 3.x: `^[a-zA-Z0-9.\-_]+$`. */
const UNSAFE = /[^A-Za-z0-9._-]/g;

/** The name a target is given, before making it unique in its section. */
export function componentName(target: Target): string {
  const last = target.tokens.at(-1);
  const base =
    last ?? posix.basename(decodeURIComponent(new URL(target.file).pathname)).replace(/\.[^.]*$/, '');
  return base.replace(UNSAFE, '_') || 'component';
}

/**
 * The object at `path` under `document` (`components`, then `schemas`), made when missing.
 * Returns undefined when something else than an object is there: the value is then copied instead.
 */
export function sectionOf(
  document: Record<string, unknown>,
  path: readonly string[],
): Record<string, unknown> | undefined {
  let node: Record<string, unknown> = document;
  for (const key of path) {
    if (!Object.hasOwn(node, key)) node[key] = {};
    const next = node[key];
    if (!isPlainObject(next) || typeof next.$ref === 'string') return undefined;
    node = next;
  }
  return node;
}

/** `name`, or `name-2`, `name-3`... the first that `section` does not have yet. */
export function uniqueName(section: Record<string, unknown>, name: string): string {
  if (!Object.hasOwn(section, name)) return name;
  for (let serial = 2; ; serial += 1) {
    const candidate = `${name}-${serial}`;
    if (!Object.hasOwn(section, candidate)) return candidate;
  }
}

/** The trail of `tokens` from the root of the bundle. */
export function trailOf(tokens: readonly string[]): Trail | undefined {
  return tokens.reduce<Trail | undefined>((up, key) => ({ up, key }), undefined);
}

/** Whether `tokens` is the place of one component of `section` (`components/schemas/Pet`). */
export function isComponentSlot(tokens: readonly string[], section: readonly string[]): boolean {
  return tokens.length === section.length + 1 && section.every((key, index) => tokens[index] === key);
}
