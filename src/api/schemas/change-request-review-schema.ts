// A review of a change request, made against one of its revisions.
import { z } from 'zod';
import { REVIEW_STATUSES } from './service-enums.js';
import { dateTime } from './shared-fields.js';
import { userSchema } from './user-schema.js';

export const changeRequestReviewSchema = z.looseObject({
  object: z.literal('change-request-review'),
  id: z.string(),
  /** The change request revision the review was made against. */
  revision: z.string(),
  reviewer: userSchema,
  status: z.enum(REVIEW_STATUSES),
  createdAt: dateTime,
  updatedAt: dateTime,
  /** Sent by the local service: true once the change request moved past `revision`. */
  outdated: z.boolean().optional(),
});

export type ChangeRequestReview = z.output<typeof changeRequestReviewSchema>;
