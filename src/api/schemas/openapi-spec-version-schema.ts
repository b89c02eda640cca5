// A version of an OpenAPI specification, and its content: what the service keeps of an upload.
import { z } from 'zod';
import { dateTime, urlMap } from './shared-fields.js';

export const openApiSpecVersionSchema = z.looseObject({
  object: z.literal('openapi-spec-version'),
  id: z.string(),
  createdAt: dateTime.optional(),
  /** Where the specification is accessible. */
  url: z.string(),
  urls: urlMap.optional(),
});

/**
 * `filesystem` is only "object" in the interface: the local service gives the parsed document, the
 * real service a list of parsed files (its renderer reads it as one); docsync looks inside it
 * (src/openapi/version-content-document.ts), so any JSON value is taken here.
 */
export const openApiSpecContentSchema = z.looseObject({
  filesystem: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]),
  url: z.string(),
});

export type OpenApiSpecVersion = z.output<typeof openApiSpecVersionSchema>;
export type OpenApiSpecContent = z.output<typeof openApiSpecContentSchema>;
