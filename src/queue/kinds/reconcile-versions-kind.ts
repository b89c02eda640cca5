// reconcile-versions: bring the spaces, collection and site section of a branches mapping to what
// it declares for the branches git holds (src/versions/). Run by the mapping's scheduler, and at
// once after each git poll of it (once per poll).
import { z } from 'zod';
import { jobId } from '../job-id.js';
import { defineJobKind } from '../job-kind.js';

export const reconcileVersionsPayload = z.object({ mapping: z.string() });

export const reconcileVersionsKind = defineJobKind({
  name: 'reconcile-versions',
  queue: 'maintain',
  payload: reconcileVersionsPayload,
  id: (payload, reason) =>
    reason === undefined ? undefined : jobId('reconcile-versions', 'now', payload.mapping, reason),
  // A reconcile asked for now is worth nothing once done; a few failed ones stay for /status.
  retention: { removeOnComplete: true, removeOnFail: 100 },
});
