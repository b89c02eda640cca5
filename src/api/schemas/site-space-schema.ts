// A site space: a space published in a site, at the top level or as a variant of a section.
import { z } from 'zod';
import { urlMap } from './shared-fields.js';
import { spaceSchema } from './space-schema.js';

export const siteSpaceSchema = z.looseObject({
  object: z.literal('site-space'),
  id: z.string(),
  path: z.string(),
  /** The section it is a variant of; absent at the top level of a site without sections. */
  section: z.string().optional(),
  space: spaceSchema,
  title: z.string(),
  /** The default variant of its section (or the default of a site without sections). */
  default: z.boolean().optional(),
  condition: z.string().optional(),
  hasAdvancedCustomizationFeature: z.boolean().optional(),
  urls: urlMap.optional(),
});

export type SiteSpace = z.output<typeof siteSpaceSchema>;
