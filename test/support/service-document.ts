// The public OpenAPI document of a real service with docsync's interface (the npm package
// `@gitbook/api`, a dev dependency pinned to a version that still lists every endpoint of the
// interface but custom fields), and ajv validators for its request and response schemas. Where the
// interface text is silent, this document decides what the service sends and accepts.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const require = createRequire(import.meta.url);
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface OperationObject {
  operationId: string;
  requestBody?: { content?: Record<string, { schema?: unknown }> } | { $ref: string };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> } | { $ref: string }>;
}

interface ServiceDocument {
  info: { version: string };
  paths: Record<string, Partial<Record<Method, OperationObject>>>;
  components: Record<string, Record<string, unknown>>;
}

const DOCUMENT_ID = 'https://docsync.invalid/service-openapi.json';

export const serviceDocument: ServiceDocument = JSON.parse(
  readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8'),
);

/**
 * The document's schemas with OpenAPI 3.0's `nullable` (which it still uses once without a `type`)
 * written as JSON Schema says it: `type: [t, 'null']`, or `anyOf` with null.
 */
export function withoutNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutNullable);
  if (typeof node !== 'object' || node === null) return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const copy = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, withoutNullable(value)]));
  if (nullable !== true) return copy;
  if (typeof copy.type === 'string') return { ...copy, type: [copy.type, 'null'] };
  return { anyOf: [copy, { type: 'null' }] };
}

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

/** An ajv for the document's schemas: not strict (it has keywords of its own), its formats known. */
export function documentAjv(options: { allErrors: boolean }): Ajv2020 {
  const created = new Ajv2020({ strict: false, allErrors: options.allErrors, validateFormats: true });
  addFormats(created);
  // Formats of the document's own: an emoji code point, an icon name.
  created.addFormat('emoji', true);
  created.addFormat('icon', true);
  return created;
}

function validatorFor(pointer: string): ValidateFunction {
  let found = compiled.get(pointer);
  if (found !== undefined) return found;
  if (ajv === undefined) {
    ajv = documentAjv({ allErrors: true });
    ajv.addSchema(withoutNullable(serviceDocument) as object, DOCUMENT_ID);
  }
  found = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
  compiled.set(pointer, found);
  return found;
}

const pointerPart = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');
const shape = (path: string) => path.replace(/^\/v1/, '').replace(/\{[^}]*\}|:[^/]+/g, '{}');

/**
 * The document's path for a path of the interface: a template (`/v1/spaces/{s}`, `/v1/spaces/:s`) or
 * a concrete one (`/v1/spaces/spc_1?x=y`), where the template with the most literal segments wins.
 */
export function documentPath(path: string): string | undefined {
  const wanted = shape(path.split('?')[0] ?? path);
  const parts = wanted.split('/');
  let best: { path: string; literal: number } | undefined;
  for (const candidate of Object.keys(serviceDocument.paths)) {
    const template = shape(candidate).split('/');
    if (template.length !== parts.length) continue;
    let literal = 0;
    const fits = template.every((part, index) => {
      if (part === parts[index]) {
        if (part !== '{}') literal += 1;
        return true;
      }
      return part === '{}';
    });
    if (fits && (best === undefined || literal > best.literal)) best = { path: candidate, literal };
  }
  return best?.path;
}

export function documentOperation(method: string, path: string): OperationObject | undefined {
  const found = documentPath(path);
  return found === undefined ? undefined : serviceDocument.paths[found]?.[method.toLowerCase() as Method];
}

export interface SchemaCheck {
  /** False when the document has no JSON schema for it (an operation it does not list, a 204). */
  known: boolean;
  valid: boolean;
  errors: string[];
}

function check(pointer: string | undefined, value: unknown): SchemaCheck {
  if (pointer === undefined) return { known: false, valid: true, errors: [] };
  const validate = validatorFor(pointer);
  const valid = validate(value) as boolean;
  return { known: true, valid, errors: valid ? [] : describeErrors(validate.errors ?? []) };
}

function resolveRef<T>(value: T | { $ref: string }): T {
  if (typeof value !== 'object' || value === null || !('$ref' in value)) return value as T;
  let node: unknown = serviceDocument;
  for (const part of value.$ref.replace(/^#\//, '').split('/'))
    node = (node as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  return node as T;
}

/** Validates an answer of the operation with the document's schema for that status. */
export function checkResponse(method: string, path: string, status: number, body: unknown): SchemaCheck {
  const found = documentPath(path);
  const verb = method.toLowerCase() as Method;
  const response = found === undefined ? undefined : serviceDocument.paths[found]?.[verb]?.responses;
  const entry = response?.[String(status)];
  if (found === undefined || entry === undefined) return check(undefined, body);
  const resolved = resolveRef(entry);
  if (resolved.content?.['application/json']?.schema === undefined) return check(undefined, body);
  const base =
    '$ref' in entry
      ? entry.$ref.replace(/^#/, '')
      : `/paths/${pointerPart(found)}/${verb}/responses/${status}`;
  return check(`${base}/content/application~1json/schema`, body);
}

/** Validates a request body of the operation with the document's request schema. */
export function checkRequest(method: string, path: string, body: unknown): SchemaCheck {
  const found = documentPath(path);
  const verb = method.toLowerCase() as Method;
  const requestBody = found === undefined ? undefined : serviceDocument.paths[found]?.[verb]?.requestBody;
  if (found === undefined || requestBody === undefined) return check(undefined, body);
  const resolved = resolveRef(requestBody);
  if (resolved.content?.['application/json']?.schema === undefined) return check(undefined, body);
  const base =
    '$ref' in requestBody
      ? requestBody.$ref.replace(/^#/, '')
      : `/paths/${pointerPart(found)}/${verb}/requestBody`;
  return check(`${base}/content/application~1json/schema`, body);
}

/** The most complaints describeErrors names: past that, a caller cannot tell what it left out. */
export const MAX_DESCRIBED_ERRORS = 50;

/** ajv's errors as short lines: `/items/0/space must be object`. */
export function describeErrors(errors: ErrorObject[]): string[] {
  return errors.slice(0, MAX_DESCRIBED_ERRORS).map((error) => {
    const extra =
      error.keyword === 'required' || error.keyword === 'additionalProperties'
        ? ` (${JSON.stringify(error.params)})`
        : '';
    return `${error.instancePath || '/'} ${error.message ?? error.keyword}${extra}`;
  });
}
