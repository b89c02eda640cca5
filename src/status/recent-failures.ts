// The failures part of /status: the newest failed jobs of every queue, read from BullMQ's own
// failed sets (kept per queue by `queues.keepFailed`), merged newest first. Job data is not read
// back through its schema here: /status shows what failed and why, not the payload.
import type { Job } from 'bullmq';
import { z } from 'zod';
import { QUEUE_NAMES, type QueueName } from '../queue/queue-names.js';
import type { Queues } from '../queue/queues.js';

export const RECENT_FAILURES = 50;

/** A failed job as /status shows it, and as `docsync status` and the page read it back. */
export const recentFailureSchema = z.object({
  /** A queue name; read as text, for queues a newer docsync adds. */
  queue: z.string(),
  /** The job's name: `poll-git`, `import-content`... */
  name: z.string(),
  id: z.string(),
  failedReason: z.string(),
  attemptsMade: z.number(),
  /** When it failed for good, ISO 8601. */
  at: z.string(),
});

export type RecentFailure = z.infer<typeof recentFailureSchema>;

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
