// A change request: proposed edits to a space, with the revisions that place it against main.
import { z } from 'zod';
import { CHANGE_REQUEST_STATUSES } from './service-enums.js';
import { dateTime, urlMap } from './shared-fields.js';
import { userSchema } from './user-schema.js';

export const changeRequestSchema = z.looseObject({
  object: z.literal('change-request'),
  id: z.string(),
  number: z.number(),
  status: z.enum(CHANGE_REQUEST_STATUSES),
  subject: z.string(),
  createdBy: userSchema.optional(),
  createdAt: dateTime,
  updatedAt: dateTime,
  revision: z.string(),
  revisionInitial: z.string(),
  revisionMergedAncestor: z.string().optional(),
  revisionMerged: z.string().optional(),
  comments: z.number(),
  outdated: z.boolean(),
  urls: urlMap.optional(),
});

export type ChangeRequest = z.output<typeof changeRequestSchema>;
