// check-links: the link check of a change request, or of a space's main content. Keyed by target
// and revision, so that one revision is checked once however many jobs ask.
import { z } from 'zod';
import { jobId } from '../../src/queue/job-id.js';
import { defineJobKind } from '../../src/queue/job-kind.js';

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
  // Broken links are findings, not failures: the verdict, the change request's comment and /status
  // show them. A check that fails is asked for again by the next poll, and shows among failed jobs.
  countsToward: false,
  id: (payload) => jobId('links', payload.space, payload.changeRequest ?? 'main', payload.revision),
});
