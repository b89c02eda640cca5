// Reads failed jobs back from docsync's queues, for `docsync retry`: every failed job, those of one
// mapping, or one job named by id. Failed jobs are kept for people to read (src/queue/add-work.ts), so
// many failures of the same work may be listed: newest first, so that the newest is retried.
import type { Job } from 'bullmq';
import { z } from 'zod';
import { QUEUE_NAMES, type QueueName } from './queue-names.js';
import type { Queues } from './queues.js';

export interface QueuedJob {
  queue: QueueName;
  job: Job;
}

/** Jobs read per call to Redis while listing a queue's failed jobs. */
const PAGE = 500;

/** What a payload may say about where it belongs; read loosely, since every kind has its own shape. */
const placeOfPayload = z.looseObject({ mapping: z.string().optional(), space: z.string().optional() });

/** True when the job's payload names the mapping, or the mapping's space. */
export function jobOfMapping(job: Job, mapping: { name: string; space: string }): boolean {
  const place = placeOfPayload.safeParse(job.data);
  if (!place.success) return false;
  return place.data.mapping === mapping.name || place.data.space === mapping.space;
}

async function failedOf(queues: Pick<Queues, 'get'>, name: QueueName): Promise<QueuedJob[]> {
  const queue = queues.get(name);
  const found: QueuedJob[] = [];
  for (let start = 0; ; start += PAGE) {
    const page = (await queue.getFailed(start, start + PAGE - 1)).filter((job): job is Job => Boolean(job));
    for (const job of page) found.push({ queue: name, job });
    if (page.length < PAGE) return found;
  }
}

/** The failed jobs of every queue that pass `keep`, the most recently failed first. */
export async function listFailedJobs(
  queues: Pick<Queues, 'get'>,
  keep: (job: Job) => boolean = () => true,
): Promise<QueuedJob[]> {
  const all = (await Promise.all(QUEUE_NAMES.map((name) => failedOf(queues, name)))).flat();
  return all
    .filter(({ job }) => keep(job))
    .sort((a, b) => (b.job.finishedOn ?? b.job.timestamp) - (a.job.finishedOn ?? a.job.timestamp));
}

/**
 * The jobs a `--job` argument names: `<queue>:<id>` in that queue, or an id looked up in every queue
 * (a BullMQ id such as `repeat:poll-git/docs:1700000000000` has colons of its own).
 */
export async function findJobs(queues: Pick<Queues, 'get'>, given: string): Promise<QueuedJob[]> {
  const colon = given.indexOf(':');
  const named = colon > 0 ? given.slice(0, colon) : '';
  const targets: Array<[QueueName, string]> = (QUEUE_NAMES as readonly string[]).includes(named)
    ? [[named as QueueName, given.slice(colon + 1)]]
    : QUEUE_NAMES.map((name) => [name, given]);
  const found = await Promise.all(
    targets.map(async ([name, id]) => {
      const job = await queues.get(name).getJob(id);
      return job === undefined ? undefined : { queue: name, job };
    }),
  );
  return found.filter((entry): entry is QueuedJob => entry !== undefined);
}
