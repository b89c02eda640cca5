// The `failed` event: a job that failed for good (a permanent error, or its attempts used up), in
// words for people, with the code, the message and hint as /status shows them (credentials
// removed). A notification that failed is never told about: that would loop. Nor is a run of a
// scheduler (a poll, its first run included): one fails on each tick while the cause lasts, and
// `failing` / `recovered` say that once each.
import { isScheduledRun } from '../producers/scheduled-tick.js';
import { failureOf } from '../state/failure-of.js';
import type { NotificationEvent } from './notification-event.js';

export interface FailedJob {
  /** The BullMQ job id: one failure told once, however many processes see it. */
  id: string;
  name: string;
  payload: unknown;
  /** The space the job locks, when it locks one. */
  space: string | undefined;
  error: unknown;
  at: Date;
}

export function failedJobEvent(job: FailedJob): NotificationEvent | undefined {
  if (job.name === 'send-notification' || isScheduledRun(job.id)) return undefined;
  const { mapping } = (job.payload ?? {}) as { mapping?: unknown };
  const failure = failureOf(job.error, job.at);
  return {
    kind: 'failed',
    key: `failed/${job.id}`.slice(0, 300),
    at: failure.at,
    summary: `${job.name} failed (${failure.code}): ${failure.message}`.slice(0, 2000),
    job: job.name,
    code: failure.code,
    ...(failure.hint === undefined || failure.hint === '' ? {} : { hint: failure.hint }),
    ...(typeof mapping === 'string' ? { mapping } : {}),
    ...(job.space === undefined ? {} : { space: job.space }),
  };
}
