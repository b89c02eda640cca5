// The next-runs part of /status: every BullMQ job scheduler of every queue (git and change request
// polls, space polls, link checks, OpenAPI refreshes) with the time of its next run, soonest first.
// Its schema is the one `docsync status` and the page read the part back with.
import type { JobSchedulerJson } from 'bullmq';
import { z } from 'zod';
import { QUEUE_NAMES, type QueueName } from '../queue/queue-names.js';
import type { Queues } from '../queue/queues.js';

export const nextRunSchema = z.object({
  /** A queue name; read as text, for queues a newer docsync adds. */
  queue: z.string(),
  /** The scheduler's id: `poll-git/<mapping>`, `refresh-openapi/<org>/<slug>`... */
  key: z.string(),
  /** The name of the job it makes. */
  name: z.string(),
  /** ISO 8601. */
  next: z.string(),
  every: z.number().optional(),
  pattern: z.string().optional(),
  tz: z.string().optional(),
});

export type NextRun = z.infer<typeof nextRunSchema>;

type Scheduler = Pick<JobSchedulerJson, 'key' | 'name' | 'next' | 'every' | 'pattern' | 'tz'>;

export async function nextRuns(queues: Pick<Queues, 'get'>): Promise<NextRun[]> {
  const perQueue = await Promise.all(
    QUEUE_NAMES.map(async (queue) => ({ queue, schedulers: await queues.get(queue).getJobSchedulers() })),
  );
  return soonestRuns(perQueue);
}

/** Schedulers with a next run, soonest first; one that ended (no next run) is left out. */
export function soonestRuns(
  perQueue: readonly { queue: QueueName; schedulers: readonly Scheduler[] }[],
): NextRun[] {
  return perQueue
    .flatMap(({ queue, schedulers }) =>
      schedulers.flatMap((scheduler) =>
        scheduler.next === undefined || !Number.isFinite(scheduler.next)
          ? []
          : [{ queue, scheduler, next: scheduler.next }],
      ),
    )
    .sort((a, b) => a.next - b.next || a.scheduler.key.localeCompare(b.scheduler.key))
    .map(({ queue, scheduler, next }) => ({
      queue,
      key: scheduler.key,
      name: scheduler.name,
      next: new Date(next).toISOString(),
      ...(scheduler.every === undefined ? {} : { every: Number(scheduler.every) }),
      ...(scheduler.pattern === undefined ? {} : { pattern: scheduler.pattern }),
      ...(scheduler.tz === undefined ? {} : { tz: scheduler.tz }),
    }));
}
