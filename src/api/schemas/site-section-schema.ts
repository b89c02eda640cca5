// A site section: a part of a site at its own path, whose content is its site spaces (variants).
import { z } from 'zod';
import { urlMap } from './shared-fields.js';
import { siteSpaceSchema } from './site-space-schema.js';

export const siteSectionSchema = z.looseObject({
  object: z.literal('site-section'),
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  /** The default section of the site. */
  default: z.boolean().optional(),
  path: z.string(),
  condition: z.string().optional(),
  /** The group holding it. */
  sectionGroup: z.string().optional(),
  icon: z.string().optional(),
  siteSpaces: z.array(siteSpaceSchema).default([]),
  urls: urlMap.optional(),
});

export type SiteSection = z.output<typeof siteSectionSchema>;
