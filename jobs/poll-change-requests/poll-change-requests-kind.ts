// poll-change-requests: list, judge and queue the upkeep of a mapping's change requests, or of a
// batch of mappings polled at the same interval (src/producers/change-request-poll-schedules.ts).
// Only its schedulers queue it (`poll-change-requests/<mapping>`, `poll-change-requests/batch.<every>ms.<n>`).
import { z } from 'zod';
import { defineJobKind } from '../../src/queue/job-kind.js';
import { mappingPollPayload } from '../mapping-poll-payload.js';

export const pollChangeRequestsPayload = z.union([
  mappingPollPayload,
  z.object({ mappings: z.array(z.string()).min(1) }),
]);

export type PollChangeRequestsPayload = z.infer<typeof pollChangeRequestsPayload>;

export const pollChangeRequestsKind = defineJobKind({
  name: 'poll-change-requests',
  queue: 'maintain',
  payload: pollChangeRequestsPayload,
  // A batch of mappings records each mapping's outcome as its poll ends (ctx.recordOutcome).
  countsToward: (payload) => ('mapping' in payload ? { mapping: payload.mapping } : undefined),
  id: () => undefined,
});
