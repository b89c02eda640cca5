// poll-change-requests: list, judge and queue the upkeep of a mapping's change requests. Only its
// scheduler queues it (`poll-change-requests/<mapping>`).
import { defineJobKind } from '../job-kind.js';
import { mappingPollPayload } from './mapping-poll-payload.js';

export const pollChangeRequestsKind = defineJobKind({
  name: 'poll-change-requests',
  queue: 'maintain',
  payload: mappingPollPayload,
  id: () => undefined,
});
