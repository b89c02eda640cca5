// poll-space: space to git's producer, reading the space's revision. Only its scheduler queues it
// (`poll-space/<mapping>`).
import { defineJobKind } from '../../src/queue/job-kind.js';
import { mappingPollPayload } from '../mapping-poll-payload.js';

export const pollSpaceKind = defineJobKind({
  name: 'poll-space',
  queue: 'export',
  payload: mappingPollPayload,
  countsToward: (payload) => ({ mapping: payload.mapping }),
  id: () => undefined,
});
