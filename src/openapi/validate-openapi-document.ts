// Validates a document as Swagger 2.0 or OpenAPI 3.x against the official schemas. The validator
// resolves every `$ref` key it finds, so data and names that look like pointers (a `$ref` inside
// an example, a property named `$ref`) are renamed in what it sees, and named back in its problems.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Validator } from '@seriousme/openapi-schema-validator';
import { OpenApiInvalidError, type OpenApiProblem } from './openapi-invalid-error.js';
import {
  childPosition,
  isMisleadingKey,
  itemPosition,
  type Position,
  type PositionRules,
} from './openapi-positions.js';

/**
 * One validator for the process: it compiles the OpenAPI schemas once (about 100 ms each). Its
 * module (ajv and the schemas) loads at the first validation, not when docsync starts.
 */
let shared: Promise<{ validator: Validator; versions: ReadonlySet<string> }> | undefined;

function sharedValidator(): Promise<{ validator: Validator; versions: ReadonlySet<string> }> {
  shared ??= import('@seriousme/openapi-schema-validator').then(({ Validator: Loaded }) => ({
    // allErrors: every problem, not the first one only, so that one run lists what to fix.
    validator: new Loaded({ allErrors: true }),
    versions: Loaded.supportedVersions,
  }));
  return shared;
}

/** Returns the version validated against: `2.0`, `3.0`, `3.1`... */
export async function validateOpenApiDocument(
  document: Record<string, unknown>,
  label: string,
  rules: PositionRules,
): Promise<string> {
  const masked = maskMisleadingKeys(document, rules);
  // A turn for the event loop between two long synchronous steps.
  await nextTurn();
  const { validator, versions } = await sharedValidator();
  const result = await validator.validate(masked);
  // Not `validator.version`: another validation may have set it since.
  if (result.valid) return versionOf(document, versions);
  const problems = problemsOf(result.errors);
  throw new OpenApiInvalidError(
    label,
    masked === document
      ? problems
      : problems.map((problem) => ({ ...problem, pointer: unmaskPointer(problem.pointer) })),
  );
}

/** The version the validator chose, as it chooses it: the first that `openapi` (or `swagger`) starts with. */
function versionOf(document: Record<string, unknown>, versions: ReadonlySet<string>): string {
  const written = typeof document.openapi === 'string' ? document.openapi : document.swagger;
  if (typeof written !== 'string') return 'unknown';
  return versions.has(written.slice(0, 3)) ? written.slice(0, 3) : 'unknown';
}

const RENAMED = 'docsync-renamed-';

/**
 * `document` with the misleading keys renamed (`$ref` → `docsync-renamed-ref`), in copies of the
 * objects that hold them and of their ancestors only: everything else is shared, not copied.
 */
export function maskMisleadingKeys(
  document: Record<string, unknown>,
  rules: PositionRules,
): Record<string, unknown> {
  const mask = (node: unknown, position: Position): unknown => {
    if (typeof node !== 'object' || node === null) return node;
    if (Array.isArray(node)) {
      const inner = itemPosition(position);
      let copy: unknown[] | undefined;
      node.forEach((item, index) => {
        const masked = mask(item, inner);
        if (masked === item) return;
        copy ??= node.slice();
        copy[index] = masked;
      });
      return copy ?? node;
    }
    const object = node as Record<string, unknown>;
    const keys = Object.keys(object);
    let entries: Array<[string, unknown]> | undefined;
    keys.forEach((key, index) => {
      const value = object[key];
      const masked = mask(value, childPosition(position, key, value, rules));
      const name = isMisleadingKey(position, key, value) ? renamedKey(key, object) : key;
      if (entries === undefined && masked === value && name === key) return;
      entries ??= keys.slice(0, index).map((kept) => [kept, object[kept]]);
      entries.push([name, masked]);
    });
    return entries === undefined ? object : Object.fromEntries(entries);
  };
  return mask(document, 'node') as Record<string, unknown>;
}

function renamedKey(key: string, object: Record<string, unknown>): string {
  let name = `${RENAMED}${key.slice(1)}`;
  while (Object.hasOwn(object, name)) name += '-';
  return name;
}

function unmaskPointer(pointer: string): string {
  return pointer
    .split('/')
    .map((token) =>
      token.startsWith(RENAMED) ? `$${token.slice(RENAMED.length).replace(/-+$/, '')}` : token,
    )
    .join('/');
}

interface AjvError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * Schema errors by pointer, made readable: the OpenAPI schemas say "one of these shapes", so a
 * mistake fails every alternative. The summaries of `oneOf`/`anyOf` go, "or a $ref instead" goes
 * when something else is said, and the allowed values of one place are given together.
 */
export function problemsOf(errors: unknown): OpenApiProblem[] {
  if (typeof errors === 'string') return [{ pointer: '', message: errors }];
  if (!Array.isArray(errors)) return [{ pointer: '', message: 'does not match the OpenAPI schema' }];
  const all = errors as AjvError[];
  const skipped = new Set(['oneOf', 'anyOf', 'if', 'then', 'else', '$ref']);
  const precise = all.filter((error) => !skipped.has(error.keyword ?? ''));
  const notRef = precise.filter((error) => error.params?.missingProperty !== '$ref');
  const chosen = notRef.length > 0 ? notRef : precise.length > 0 ? precise : all;
  const allowed = new Map<string, Set<string>>();
  const problems: OpenApiProblem[] = [];
  const seen = new Set<string>();
  for (const error of chosen) {
    const pointer = error.instancePath ?? '';
    const values = error.params?.allowedValues;
    if (error.keyword === 'enum' && Array.isArray(values)) {
      const known = allowed.get(pointer);
      if (known !== undefined) {
        for (const value of values) known.add(String(value));
        continue;
      }
      allowed.set(pointer, new Set(values.map(String)));
      problems.push({ pointer, message: 'enum' });
      continue;
    }
    const message = describe(error);
    const key = `${pointer} ${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ pointer, message });
  }
  return problems.map((problem) =>
    problem.message === 'enum'
      ? {
          pointer: problem.pointer,
          message: `must be one of: ${[...(allowed.get(problem.pointer) ?? [])].join(', ')}`,
        }
      : problem,
  );
}

function describe(error: AjvError): string {
  const message = error.message ?? 'is invalid';
  const params = error.params ?? {};
  if (typeof params.additionalProperty === 'string') return `${message}: ${params.additionalProperty}`;
  return message;
}
