// The answer of the link checks (`/spaces/{s}/links`, `.../page/{p}/links`): a Page of links with
// their status and where they point and sit (ContentLocation records), plus counts over the whole
// revision.
import { z } from 'zod';
import { contentLocationSchema } from './content-location-schema.js';
import { pageOf } from './page-of.js';
import { LINK_STATUSES } from './service-enums.js';

export const linkCheckItemSchema = z.looseObject({
  status: z.enum(LINK_STATUSES),
  relation: z.string(),
  targetReference: contentLocationSchema.optional(),
  locationReferences: z.array(contentLocationSchema),
});

export const linkCheckListSchema = pageOf(linkCheckItemSchema).extend({
  stats: z.looseObject({
    total: z.number(),
    broken: z.looseObject({ total: z.number(), changeRequest: z.number().optional() }),
  }),
});

export type LinkCheckItem = z.output<typeof linkCheckItemSchema>;
export type LinkCheckList = z.output<typeof linkCheckListSchema>;
