// The adaptive schema of a site: the JSON schema of the visitor claims its content adapts to.
import { z } from 'zod';
import { dateTime } from './shared-fields.js';

export const siteAdaptiveSchemaSchema = z.looseObject({
  object: z.literal('site-adaptive-schema'),
  jsonSchema: z.looseObject({}),
  updatedAt: dateTime,
});

export type SiteAdaptiveSchema = z.output<typeof siteAdaptiveSchemaSchema>;
