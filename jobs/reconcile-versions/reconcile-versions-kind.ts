// reconcile-versions: bring the spaces, collection and site section of a branches mapping to what
// it declares for the branches git holds (src/versions/). Run by the mapping's scheduler, and at
// once after each git poll of it (once per poll).
import { z } from 'zod';
import { jobId } from '../../src/queue/job-id.js';
import { defineJobKind } from '../../src/queue/job-kind.js';

export const reconcileVersionsPayload = z.object({ mapping: z.string() });

export const reconcileVersionsKind = defineJobKind({
  name: 'reconcile-versions',
  queue: 'maintain',
  payload: reconcileVersionsPayload,
  // A branches mapping has no state of its own on /status: its branches are mappings, whose jobs
  // count. A failed reconcile shows among failed jobs and runs again at the mapping's next tick.
  countsToward: false,
  id: (payload, reason) =>
    reason === undefined ? undefined : jobId('reconcile-versions', 'now', payload.mapping, reason),
  // A reconcile asked for now is worth nothing once done; a few failed ones stay for /status.
  retention: { removeOnComplete: true, removeOnFail: 100 },
});
