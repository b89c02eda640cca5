// The kinds that act on one change request at one revision (update, merge): the same payload, the
// `maintain` queue, ids keyed by revision and the same retention; only the name and id prefix differ.
import { jobId } from '../src/queue/job-id.js';
import { defineJobKind, type JobKind } from '../src/queue/job-kind.js';
import { type ChangeRequestJobPayload, changeRequestJobPayload } from './change-request-job-payload.js';

/**
 * Keyed by revision so that processes polling together queue one. A poll may queue the same
 * revision again and again (a request for changes withdrawn, a merge still waiting): completed ones
 * are forgotten at once; failed ones are kept for people to read, like every kind's, and never stop
 * the next poll's job (src/queue/add-work.ts).
 */
const FORGET_COMPLETED = { removeOnComplete: true } as const;

/** Job ids `<idPrefix>/<space>/<changeRequest>/<revision>`. */
export function changeRequestJobKind(name: string, idPrefix: string): JobKind<ChangeRequestJobPayload> {
  return defineJobKind({
    name,
    queue: 'maintain',
    payload: changeRequestJobPayload,
    countsToward: (payload) => ({ mapping: payload.mapping }),
    id: (payload) => jobId(idPrefix, payload.space, payload.changeRequest, payload.revision),
    retention: FORGET_COMPLETED,
  });
}
