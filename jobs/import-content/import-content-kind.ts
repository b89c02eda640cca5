// import-content: a mapping's folder, at a commit or in a watched working copy, into the change
// request docsync keeps. A commit is imported once (`import/<mapping>/<sha>`); the working copy's
// imports are debounced per mapping instead (worktreeDebounce).
import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import { jobId } from '../../src/queue/job-id.js';
import { defineJobKind } from '../../src/queue/job-kind.js';

export const importContentPayload = z.discriminatedUnion('source', [
  z.object({
    source: z.literal('git'),
    mapping: z.string(),
    space: z.string(),
    sha: z.string().regex(/^[0-9a-f]{40,64}$/),
    commit: z.object({
      sha: z.string(),
      subject: z.string(),
      authorName: z.string(),
      /** When the newest commit by a person was made (jobs queued before docsync sent it have none). */
      committedAt: z.iso.datetime().optional(),
    }),
  }),
  z.object({ source: z.literal('worktree'), mapping: z.string(), space: z.string(), path: z.string() }),
]);

export type ImportContentPayload = z.infer<typeof importContentPayload>;

export const importContentKind = defineJobKind({
  name: 'import-content',
  queue: 'import',
  payload: importContentPayload,
  countsToward: (payload) => ({ mapping: payload.mapping }),
  id: (payload) => (payload.source === 'git' ? jobId('import', payload.mapping, payload.sha) : undefined),
});

/**
 * BullMQ's debounce for a working copy's import: one pending import per mapping, replaced and
 * pushed back by every save until `debounceMs` pass without one.
 */
export function worktreeDebounce(
  mapping: string,
  debounceMs: number,
): NonNullable<JobsOptions['deduplication']> {
  return { id: jobId('watch', mapping), ttl: debounceMs, extend: true, replace: true };
}
