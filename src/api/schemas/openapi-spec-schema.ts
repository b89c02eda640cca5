// An OpenAPI specification kept by an organization, and where processing of its last upload stands.
import { z } from 'zod';
import { PROCESS_ERROR_CODES, PROCESSING_STATES } from './service-enums.js';
import { dateTime, permissionMap, urlMap } from './shared-fields.js';

export const openApiSpecSchema = z.looseObject({
  object: z.literal('openapi-spec'),
  id: z.string(),
  createdAt: dateTime,
  updatedAt: dateTime,
  slug: z.string(),
  sourceURL: z.string().optional(),
  processingState: z.enum(PROCESSING_STATES),
  lastVersion: z.string().optional(),
  lastProcessedAt: dateTime.optional(),
  lastProcessErrorCode: z.enum(PROCESS_ERROR_CODES).optional(),
  permissions: permissionMap.optional(),
  urls: urlMap.optional(),
});

export type OpenApiSpec = z.output<typeof openApiSpecSchema>;
