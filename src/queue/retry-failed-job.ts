// Runs a failed job again now (BullMQ's job.retry()), once per piece of work, whatever its back-off
// (src/queue/work-back-off.ts), which ends: a job whose work already waits or runs under another id
// (a rerun queued by a producer, an older failure retried a moment ago) is left as it is. A retried job is made its work's pending job again, so producers
// queuing the same work meanwhile get it (src/queue/add-work.ts). `docsync retry` and the dashboard's
// retry both come here.
import type { FinishedStatus, Job, Queue } from 'bullmq';
import type { RedisClient } from '../redis/redis-connections.js';
import { PENDING_STATES } from './add-work.js';
import { holdDeduplicationKey } from './bullmq-internals/deduplication-key.js';
import { endWorkBackOff } from './work-back-offs.js';

export type RetryOutcome =
  | { retried: true }
  /** The same work already waits or runs as job `as`. */
  | { retried: false; reason: 'queued'; as: string }
  /** The job is not (or no longer) in the state it was to be retried from. */
  | { retried: false; reason: 'moved' };

/** The job of the work that is pending under another id than `job`'s, if any. */
async function pendingRunOf(queue: Queue, job: Job): Promise<string | undefined> {
  const workId = job.deduplicationId;
  if (workId === undefined) return undefined;
  // The deduplication id names a rerun while it is pending; the work's own id, a first run queued
  // before runs were deduplicated, or one retried by hand.
  const candidates = [await queue.getDeduplicationJobId(workId), workId];
  for (const id of candidates) {
    if (id === undefined || id === null || id === job.id) continue;
    if (PENDING_STATES.has(await queue.getJobState(id))) return id;
  }
  return undefined;
}

export interface RetryOptions {
  /** The connection of the queue (Queues.connection): BullMQ has no call that sets a deduplication id. */
  redis: Pick<RedisClient, 'set'>;
  /** What the job is retried from; `failed` unless a person asked for a completed job to run again. */
  state?: FinishedStatus;
  /** BullMQ's retry of this job, where the job's own `retry` was replaced (the dashboard's jobs). */
  retry?: Job['retry'];
}

export async function retryFailedJob(queue: Queue, job: Job, options: RetryOptions): Promise<RetryOutcome> {
  const state = options.state ?? 'failed';
  const pending = await pendingRunOf(queue, job);
  if (pending !== undefined) return { retried: false, reason: 'queued', as: pending };
  try {
    // A fresh run: every attempt of the queue's policy again, not only the ones left.
    const retry = options.retry ?? job.retry.bind(job);
    await retry(state, { resetAttemptsMade: true, resetAttemptsStarted: true });
  } catch (error) {
    // BullMQ's codes: the job is gone, locked (running), or not in the state named.
    if (job.id !== undefined && (await queue.getJobState(job.id)) === state) throw error;
    return { retried: false, reason: 'moved' };
  }
  if (job.deduplicationId !== undefined && job.id !== undefined) {
    // BullMQ clears a work's deduplication key when its job finishes, and a retry does not set it
    // again: set here, unless a producer queued the work meanwhile (NX). Its job clears it as usual.
    // A person asked for the work now: its back-off is over, and a failure of it counts from one.
    await Promise.all([
      holdDeduplicationKey(options.redis, queue, job.deduplicationId, job.id),
      endWorkBackOff(queue, job.deduplicationId),
    ]);
  }
  return { retried: true };
}
