// A site: a published documentation site built from site spaces, sections and section groups.
import { z } from 'zod';
import { dateTime, urlMap } from './shared-fields.js';
import { SITE_AGENTS_CONTEXTS, SITE_TYPES, SITE_VISIBILITIES } from './site-enums.js';

export const siteSchema = z.looseObject({
  object: z.literal('site'),
  id: z.string(),
  type: z.enum(SITE_TYPES),
  title: z.string(),
  // A favicon (an icon, an emoji, or an empty object) or null.
  icon: z.union([z.looseObject({}), z.null()]).optional(),
  hostname: z.string().optional(),
  basename: z.string().optional(),
  proxy: z.looseObject({ origin: z.string(), target: z.string() }).optional(),
  visibility: z.enum(SITE_VISIBILITIES),
  published: z.boolean(),
  siteSpaces: z.number(),
  createdAt: dateTime,
  adaptiveContent: z.looseObject({ enabled: z.boolean() }).optional(),
  ads: z.looseObject({ status: z.string() }).optional(),
  agentsContext: z.enum(SITE_AGENTS_CONTEXTS).optional(),
  features: z.array(z.looseObject({ id: z.string(), plan: z.string(), frozen: z.boolean() })).optional(),
  urls: urlMap.optional(),
});

export type Site = z.output<typeof siteSchema>;

/** What publishing answers: the site, or a checkout the organization must go through first. */
export const sitePublishResultSchema = z.union([
  siteSchema,
  z.looseObject({ type: z.literal('checkout'), sessionId: z.string() }),
]);

export type SitePublishResult = z.output<typeof sitePublishResultSchema>;
