// A site section group: sections (and, as the document allows, groups) shown together.
import { z } from 'zod';
import { type SiteSection, siteSectionSchema } from './site-section-schema.js';

export interface SiteSectionGroup {
  object: 'site-section-group';
  id: string;
  title: string;
  icon?: string | undefined;
  /** The group holding it. */
  sectionGroup?: string | undefined;
  /** The sections directly in the group (the document's older member). */
  sections: SiteSection[];
  /** Sections and groups directly in the group, in order. */
  children: Array<SiteSection | SiteSectionGroup>;
  [member: string]: unknown;
}

export const siteSectionGroupSchema: z.ZodType<SiteSectionGroup> = z.lazy(() =>
  z.looseObject({
    object: z.literal('site-section-group'),
    id: z.string(),
    title: z.string(),
    icon: z.string().optional(),
    sectionGroup: z.string().optional(),
    sections: z.array(siteSectionSchema).default([]),
    children: z.array(siteStructureItemSchema).default([]),
  }),
);

/** An item of a site's structure with sections: a section or a group. */
export const siteStructureItemSchema: z.ZodType<SiteSection | SiteSectionGroup> = z.lazy(() =>
  z.union([siteSectionSchema, siteSectionGroupSchema]),
);
