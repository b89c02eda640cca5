// The failures part of /status: the newest failed jobs of every queue, read from BullMQ's own
// failed sets (kept per queue by `queues.keepFailed`), merged newest first. Job data is not read
// back through its schema here: /status shows what failed and why, not the payload.
import type { Job } from 'bullmq';
import { QUEUE_NAMES, type QueueName } from '../queue/queue-names.js';
import type { Queues } from '../queue/queues.js';

export const RECENT_FAILURES = 50;

export interface RecentFailure {
  queue: QueueName;
  /** The job's name: `poll-git`, `import-content`... */
  name: string;
  id: string;
  failedReason: string;
  attemptsMade: number;
  /** When it failed for good, ISO 8601. */
  at: string;
}

type FailedJob = Pick<Job, 'name' | 'id' | 'failedReason' | 'attemptsMade' | 'finishedOn' | 'timestamp'>;

export async function recentFailures(
  queues: Pick<Queues, 'get'>,
  limit = RECENT_FAILURES,
): Promise<RecentFailure[]> {
  // Each failed set is ordered by finishing time: the newest `limit` of each queue hold the
  // newest `limit` of all.
  const perQueue = await Promise.all(
    QUEUE_NAMES.map(async (queue) => ({ queue, jobs: await queues.get(queue).getFailed(0, limit - 1) })),
  );
  return newestFailures(perQueue, limit);
}

/** Merges the failed jobs of each queue, newest first, and keeps `limit`. */
export function newestFailures(
  perQueue: readonly { queue: QueueName; jobs: readonly FailedJob[] }[],
  limit: number,
): RecentFailure[] {
  return perQueue
    .flatMap(({ queue, jobs }) =>
      jobs.map((job) => ({ queue, job, finishedOn: job.finishedOn ?? job.timestamp })),
    )
    .sort((a, b) => b.finishedOn - a.finishedOn)
    .slice(0, limit)
    .map(({ queue, job, finishedOn }) => ({
      queue,
      name: job.name,
      id: job.id ?? '',
      failedReason: job.failedReason ?? '',
      attemptsMade: job.attemptsMade,
      at: new Date(finishedOn).toISOString(),
    }));
}
