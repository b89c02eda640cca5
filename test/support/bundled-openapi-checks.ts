// What every bundled OpenAPI document must satisfy, whatever tree it came from: no `$ref` leaves
// it, every `$ref` inside it names a value, and a second validator (Swagger Parser, which also
// checks what the schemas cannot: path parameters, unique operation ids) accepts it.
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect } from 'vitest';
import { fragmentTokens, valueAt } from '../../src/openapi/json-pointer.js';
import type { LoadedOpenApi } from '../../src/openapi/load-openapi-document.js';
import { rulesOf } from '../../src/openapi/openapi-positions.js';
import { validateOpenApiDocument } from '../../src/openapi/validate-openapi-document.js';

/** Every string `$ref` of a value, with its pointer. Bundled fixtures have no `$ref` in examples. */
export function refsOf(value: unknown, at = ''): Array<{ at: string; ref: string }> {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === '$ref' && typeof child === 'string'
      ? [{ at, ref: child }]
      : refsOf(child, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  );
}

export async function expectSelfContainedAndValid(loaded: LoadedOpenApi): Promise<void> {
  const { document } = loaded;
  const refs = refsOf(document);
  expect(refs.filter(({ ref }) => !ref.startsWith('#'))).toEqual([]);
  const dangling = refs.filter(({ ref }) => !valueAt(document, fragmentTokens(ref.slice(1)) ?? ['?']).found);
  expect(dangling).toEqual([]);
  // The text uploaded is the document checked here.
  expect(loaded.text).not.toMatch(/\$ref: \.|\$ref: "?[^"#\s]+\.(ya?ml|json|py|md)/);
  await validateOpenApiDocument(structuredClone(document), 'bundle', rulesOf(document));
  await SwaggerParser.validate(structuredClone(document) as never);
}
