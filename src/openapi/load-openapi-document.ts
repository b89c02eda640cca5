// From the bytes of a source to the document docsync would upload: parsed, its references to other
// files read through the source and bundled into one document, and validated as Swagger 2.0 or
// OpenAPI 3.x. Anything wrong is an OpenApiInvalidError naming the first problems by JSON pointer.
import { stringify } from 'yaml';
import { type BundleLimits, bundleOpenApiRefs, hasExternalRef } from './bundle-openapi-refs.js';
import { eventLoopSlicer } from './event-loop-slicer.js';
import { OpenApiInvalidError } from './openapi-invalid-error.js';
import { rulesOf } from './openapi-positions.js';
import type { OpenApiSourceReader } from './openapi-source-types.js';
import { parseOpenApiText, type TextFormat } from './parse-openapi-text.js';
import { textProblems } from './text-problems.js';
import { validateOpenApiDocument } from './validate-openapi-document.js';

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

export async function loadOpenApiDocument(
  bytes: Buffer,
  reader: OpenApiSourceReader,
  limits: BundleLimits,
  signal: AbortSignal,
): Promise<LoadedOpenApi> {
  const source = bytes.toString('utf8');
  const parsed = parseOpenApiText(source);
  if (!parsed.ok) throw new OpenApiInvalidError(reader.label, textProblems(parsed.problems));
  const { value, format } = parsed;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new OpenApiInvalidError(reader.label, [{ pointer: '', message: 'is not an object' }]);
  const document = value as Record<string, unknown>;
  if (!('openapi' in document) && !('swagger' in document)) {
    throw new OpenApiInvalidError(reader.label, [
      { pointer: '', message: 'has no openapi (3.x) or swagger (2.0) member: is this an OpenAPI document?' },
    ]);
  }
  // Each step below is synchronous and can take a few hundred ms on a spec of 10 MB: the event
  // loop gets a turn between them, so that health checks and lock renewals are not held back.
  const slicer = eventLoopSlicer(signal, 0);
  await slicer.pause();
  const rules = rulesOf(document);
  let refFiles = 0;
  if (hasExternalRef(document, rules)) {
    const bundled = await bundleOpenApiRefs(
      document,
      reader,
      { ...limits, rules, documentBytes: bytes.length },
      signal,
    );
    refFiles = bundled.files;
  }
  await slicer.pause();
  const version = await validateOpenApiDocument(document, reader.label, rules);
  // Without other files the source's own bytes are uploaded: its comments, order and layout kept.
  const text =
    refFiles === 0
      ? source
      : format === 'json'
        ? `${JSON.stringify(document, null, 2)}\n`
        : stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
  return { document, format, text, refFiles, version };
}
