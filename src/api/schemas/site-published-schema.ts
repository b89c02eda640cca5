// The published view of a site: the site, its structure as visitors see it (sections and groups, or
// the site spaces of a site without sections), and its customization.
import { z } from 'zod';
import { siteSchema } from './site-schema.js';
import { siteStructureItemSchema } from './site-section-group-schema.js';
import { siteSpaceSchema } from './site-space-schema.js';

export const siteStructureSchema = z.union([
  z.looseObject({ type: z.literal('sections'), structure: z.array(siteStructureItemSchema) }),
  z.looseObject({ type: z.literal('siteSpaces'), structure: z.array(siteSpaceSchema) }),
]);

export const publishedSiteSchema = z.looseObject({
  object: z.literal('published-content-site'),
  site: siteSchema,
  structure: siteStructureSchema,
  customizations: z.looseObject({
    site: z.looseObject({}).optional(),
    siteSpaces: z.record(z.string(), z.looseObject({})).optional(),
  }),
  scripts: z.array(z.looseObject({})).optional(),
});

export type PublishedSite = z.output<typeof publishedSiteSchema>;
