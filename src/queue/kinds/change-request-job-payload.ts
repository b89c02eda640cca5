// The payload of the jobs that act on one change request at one revision (update, merge).
import { z } from 'zod';

export const changeRequestJobPayload = z.object({
  mapping: z.string(),
  space: z.string(),
  changeRequest: z.string(),
  revision: z.string(),
});

export type ChangeRequestJobPayload = z.infer<typeof changeRequestJobPayload>;

/**
 * Update and merge jobs are keyed by revision so that processes polling together queue one; once
 * done they are forgotten, so the next poll can try again when something else changed (a request
 * for changes withdrawn) at the same revision.
 */
export const ONCE_DONE_FORGET = { removeOnComplete: true, removeOnFail: true } as const;
