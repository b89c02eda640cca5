// report-commit-status: the status of an imported commit on the mapping's git host (its `report`
// block). Keyed by commit and event, so that the points of the flow asking for the same report
// while one waits make one job; the job reads the facts when it runs. On the notify queue, with the
// webhooks: a slow or failing git host never holds up an import or a link check, and its retries
// wait as delayed jobs.
import { z } from 'zod';
import { jobId } from '../../src/queue/job-id.js';
import { defineJobKind } from '../../src/queue/job-kind.js';

/** What happened to the commit that its status should say (src/commit-status/describe-commit-status.ts). */
export const COMMIT_STATUS_EVENTS = [
  'importing',
  'deferred',
  'paused',
  'superseded',
  'failed',
  'imported',
  'links-checked',
  'merged',
] as const;

export type CommitStatusEvent = (typeof COMMIT_STATUS_EVENTS)[number];

export const reportCommitStatusPayload = z.object({
  mapping: z.string(),
  sha: z.string().regex(/^[0-9a-f]{40,64}$/),
  event: z.enum(COMMIT_STATUS_EVENTS),
  /** The change request the commit went into, when the producer knows it. */
  changeRequest: z.string().optional(),
  /** The code of the import's failure (`failed`). */
  failureCode: z.string().optional(),
});

export type ReportCommitStatusPayload = z.infer<typeof reportCommitStatusPayload>;

export const reportCommitStatusKind = defineJobKind({
  name: 'report-commit-status',
  queue: 'notify',
  payload: reportCommitStatusPayload,
  // Counted apart from the mapping's imports (per job), with the git host's hint (failure-hint.ts).
  countsToward: (payload) => ({ mapping: payload.mapping }),
  id: (payload) => jobId('commit-status', payload.mapping, payload.sha, payload.event),
  // Several per commit: completed ones are forgotten at once, failed ones kept for people to read.
  retention: { removeOnComplete: true },
});
