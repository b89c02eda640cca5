// poll-git: fetch a mapping's repository and decide whether its folder needs an import. Run by the
// mapping's scheduler, and at once (the push webhook, `docsync resume`) once per reason.
import { jobId } from '../../src/queue/job-id.js';
import { defineJobKind } from '../../src/queue/job-kind.js';
import { mappingPollPayload } from '../mapping-poll-payload.js';

export const pollGitKind = defineJobKind({
  name: 'poll-git',
  queue: 'import',
  payload: mappingPollPayload,
  countsToward: (payload) => ({ mapping: payload.mapping }),
  id: (payload, reason) =>
    reason === undefined ? undefined : jobId('poll-git', 'now', payload.mapping, reason),
  // A poll asked for now is worth nothing once done; a few failed ones stay for /status.
  retention: { removeOnComplete: true, removeOnFail: 100 },
});
