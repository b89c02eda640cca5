// One uploaded version of an OpenAPI specification.
import { z } from 'zod';
import { dateTime, urlMap } from './shared-fields.js';

export const openApiSpecVersionSchema = z.looseObject({
  object: z.literal('openapi-spec-version').optional(),
  id: z.string(),
  createdAt: dateTime.optional(),
  /** Where the specification of this version can be read. */
  url: z.string(),
  urls: urlMap.optional(),
});

export type OpenApiSpecVersion = z.output<typeof openApiSpecVersionSchema>;
