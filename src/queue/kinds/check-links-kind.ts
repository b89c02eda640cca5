// check-links: the link check of a change request, or of a space's main content. Keyed by target
// and revision, so that one revision is checked once however many jobs ask.
import { z } from 'zod';
import { jobId } from '../job-id.js';
import { defineJobKind } from '../job-kind.js';

/** The revision a scheduled check reads: the space's current one when the job runs. */
export const LATEST_REVISION = 'latest';

export const checkLinksPayload = z.object({
  space: z.string(),
  changeRequest: z.string().optional(),
  /** The revision that prompted the check, or `latest` (scheduled checks): the target's current one. */
  revision: z.union([z.literal(LATEST_REVISION), z.string().min(1)]),
  /** Keep docsync's link comment on the change request (the mapping's `links.comment`). */
  comment: z.boolean().default(false),
});

export type CheckLinksPayload = z.input<typeof checkLinksPayload>;

export const checkLinksKind = defineJobKind({
  name: 'check-links',
  queue: 'links',
  payload: checkLinksPayload,
  id: (payload) => jobId('links', payload.space, payload.changeRequest ?? 'main', payload.revision),
});
