// poll-git: fetch a mapping's repository and decide whether its folder needs an import, or do so
// for the mappings of one repository at one interval, which share one look (src/producers/git-poll-schedules.ts).
// Run by its scheduler, and for one mapping at once (the push webhook, `docsync resume`) once per reason.
import { z } from 'zod';
import { jobId } from '../../src/queue/job-id.js';
import { defineJobKind } from '../../src/queue/job-kind.js';
import { mappingPollPayload } from '../mapping-poll-payload.js';

export const pollGitPayload = z.union([
  mappingPollPayload,
  z.object({ mappings: z.array(z.string()).min(1) }),
]);

export type PollGitPayload = z.infer<typeof pollGitPayload>;

export const pollGitKind = defineJobKind({
  name: 'poll-git',
  queue: 'import',
  payload: pollGitPayload,
  // The mappings of a repository's poll record each mapping's outcome as its poll ends (ctx.recordOutcome).
  countsToward: (payload) => ('mapping' in payload ? { mapping: payload.mapping } : undefined),
  id: (payload, reason) =>
    reason === undefined || !('mapping' in payload)
      ? undefined
      : jobId('poll-git', 'now', payload.mapping, reason),
  // A poll asked for now is worth nothing once done; a few failed ones stay for /status.
  retention: { removeOnComplete: true, removeOnFail: 100 },
});
