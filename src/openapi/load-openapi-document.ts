// From the bytes of a source to the document docsync would upload: parsed, its external `$ref`s
// read through the source (and bundled into one document), and validated as Swagger 2.0 or
// OpenAPI 3.x. Anything wrong is an OpenApiInvalidError naming the first problems by JSON pointer.
import { $RefParser } from '@apidevtools/json-schema-ref-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { stringify } from 'yaml';
import { OpenApiInvalidError, type OpenApiProblem } from './openapi-invalid-error.js';
import { OpenApiSourceError } from './openapi-source-error.js';
import type { OpenApiSourceReader } from './openapi-source-reader.js';
import { parseOpenApiText, type TextFormat } from './parse-openapi-text.js';
import { tooLarge } from './url-source-reader.js';

export interface LoadedOpenApi {
  document: Record<string, unknown>;
  format: TextFormat;
  /** The text to upload: the source's bytes, or the bundle when `$ref`s named other files. */
  text: string;
  /** How many other files the document's `$ref`s named. */
  refFiles: number;
  /** `2.0`, `3.0`, `3.1`... */
  version: string;
}

/** Files a document may pull in through `$ref`s, beyond itself. */
export const MAX_REF_FILES = 200;

export async function loadOpenApiDocument(
  bytes: Buffer,
  reader: OpenApiSourceReader,
  limits: { maxBytes: number },
  signal: AbortSignal,
): Promise<LoadedOpenApi> {
  const { value, format } = parseOpenApiText(bytes, reader.label);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new OpenApiInvalidError(reader.label, [{ pointer: '', message: 'is not an object' }]);
  let document = value as Record<string, unknown>;
  if (!('openapi' in document) && !('swagger' in document)) {
    throw new OpenApiInvalidError(reader.label, [
      { pointer: '', message: 'has no openapi (3.x) or swagger (2.0) member: is this an OpenAPI document?' },
    ]);
  }
  let refFiles = 0;
  if (hasExternalRef(document)) {
    const bundled = await bundle(document, reader, limits, signal);
    document = bundled.document;
    refFiles = bundled.files;
  }
  const version = await validate(document, reader.label);
  const text =
    refFiles === 0
      ? bytes.toString('utf8')
      : format === 'json'
        ? `${JSON.stringify(document, null, 2)}\n`
        : stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
  return { document, format, text, refFiles, version };
}

async function bundle(
  document: Record<string, unknown>,
  reader: OpenApiSourceReader,
  limits: { maxBytes: number },
  signal: AbortSignal,
): Promise<{ document: Record<string, unknown>; files: number }> {
  let files = 0;
  let total = 0;
  // What a read threw, so a network failure stays retryable rather than becoming "invalid".
  let readFailure: unknown;
  const parser = new $RefParser();
  try {
    await parser.bundle(reader.location, document, {
      resolve: {
        external: true,
        file: false,
        http: false,
        source: {
          order: 1,
          canRead: true,
          read: async (file: { url: string }) => {
            files += 1;
            if (files > MAX_REF_FILES) {
              readFailure = new OpenApiSourceError(
                'SOURCE_TOO_LARGE',
                `${reader.label}: its $refs name more than ${MAX_REF_FILES} files`,
              );
              throw readFailure;
            }
            try {
              const bytes = await reader.readRef(file.url, signal);
              total += bytes.length;
              if (total > limits.maxBytes)
                throw tooLarge(`${reader.label} with the files its $refs name`, limits.maxBytes);
              return bytes;
            } catch (error) {
              readFailure ??= error;
              throw error;
            }
          },
        },
      },
      parse: {
        json: false,
        yaml: false,
        text: false,
        binary: false,
        source: {
          order: 1,
          canParse: true,
          parse: (file: { url: string; data: Buffer }) => parseOpenApiText(file.data, file.url).value,
        },
      },
    });
  } catch (error) {
    if (readFailure !== undefined) throw readFailure;
    if (error instanceof OpenApiInvalidError) throw error;
    throw new OpenApiInvalidError(reader.label, [
      { pointer: '', message: `has a $ref that cannot be followed: ${(error as Error).message}` },
    ]);
  }
  return { document: parser.schema as Record<string, unknown>, files };
}

async function validate(document: Record<string, unknown>, label: string): Promise<string> {
  // allErrors: every problem, not the first one only, so that one run lists what to fix.
  const validator = new Validator({ allErrors: true });
  // A copy: the validator may annotate what it is given.
  const result = await validator.validate(structuredClone(document));
  if (result.valid) return validator.version ?? 'unknown';
  throw new OpenApiInvalidError(label, problemsOf(result.errors));
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

/** Whether any `$ref` names another file (anything but `#...`). */
function hasExternalRef(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && typeof child === 'string' && !child.startsWith('#')) return true;
      stack.push(child);
    }
  }
  return false;
}
