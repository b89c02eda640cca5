// Job schedulers of one kind (`poll-git/<mapping>`, `links-schedule/<mapping>`...), the one loop
// every kind's schedulers go through: the wanted ones are created or updated through the kind's
// handle (its name, queue and payload check), those no longer configured are removed. A scheduler
// runs each tick once, however many docsync processes share the Redis.
import type { Queue, RepeatOptions } from 'bullmq';
import type { Logger } from '../log/create-logger.js';
import { jobId } from '../queue/job-id.js';
import type { JobKind } from '../queue/job-kind.js';

export interface WantedScheduler<I> {
  /** The mapping (or spec) it belongs to: the scheduler id is `<kind>/<key>`. */
  key: string;
  repeat: Omit<RepeatOptions, 'key'>;
  payload: I;
}

/**
 * `prefix` is the first part of the scheduler ids, the kind's name unless given: the link check
 * schedulers keep `links-schedule/<mapping>`, the ids they have in every Redis that ran docsync.
 */
export async function syncJobSchedulers<P, I>(
  queue: Queue,
  kind: JobKind<P, I>,
  wanted: readonly WantedScheduler<I>[],
  log: Logger,
  prefix: string = kind.name,
): Promise<void> {
  const ids = new Set<string>();
  for (const scheduler of wanted) {
    const id = jobId(prefix, scheduler.key);
    ids.add(id);
    await kind.schedule(queue, id, scheduler.repeat, scheduler.payload);
  }
  for (const scheduler of await queue.getJobSchedulers()) {
    if (scheduler.key.startsWith(`${prefix}/`) && !ids.has(scheduler.key)) {
      await queue.removeJobScheduler(scheduler.key);
      log.info({ kind: kind.name, scheduler: scheduler.key }, 'job scheduler no longer configured deleted');
    }
  }
  log.info({ kind: kind.name, schedulers: ids.size }, 'job schedulers in place');
}
