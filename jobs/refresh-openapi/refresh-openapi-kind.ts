// refresh-openapi: re-upload one OpenAPI spec when its source holds new content. Its scheduler
// queues `schedule` ticks; a tick waits out the spec's jitter as a `tick` job, and a commit or a
// request refreshes it at once: each of those once per reason (the tick, the blob, the request).
import { z } from 'zod';
import { jobId } from '../../src/queue/job-id.js';
import { defineJobKind } from '../../src/queue/job-kind.js';

export const refreshOpenApiPayload = z.object({
  org: z.string().min(1),
  slug: z.string().min(1),
  /** `schedule` (the scheduler's tick: waits out the spec's jitter first), `tick` (after it), `git`, `now`. */
  trigger: z.enum(['schedule', 'tick', 'git', 'now']).default('schedule'),
});

export type RefreshOpenApiPayload = z.input<typeof refreshOpenApiPayload>;

export const refreshOpenApiKind = defineJobKind({
  name: 'refresh-openapi',
  queue: 'openapi',
  payload: refreshOpenApiPayload,
  countsToward: (payload) => ({
    openapi: { org: payload.org, slug: payload.slug, trigger: payload.trigger },
  }),
  id: (payload, reason) =>
    payload.trigger === 'schedule' || reason === undefined
      ? undefined
      : jobId('refresh-openapi', payload.org, payload.slug, payload.trigger, reason),
  // A refresh asked for outside the schedule is worth nothing once done; a tick keeps the defaults.
  retention: (payload) =>
    payload.trigger === 'git' || payload.trigger === 'now'
      ? { removeOnComplete: true, removeOnFail: 100 }
      : undefined,
});
