// Job schedulers of one kind (`poll-git/<mapping>`, `poll-change-requests/<mapping>`...): the
// wanted ones are created or updated through the kind's handle (its name, queue and payload
// check), those of mappings no longer configured are removed. A scheduler runs each tick once,
// however many docsync processes share the Redis.
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

export async function syncJobSchedulers<P, I>(
  queue: Queue,
  kind: JobKind<P, I>,
  wanted: readonly WantedScheduler<I>[],
  log: Logger,
): Promise<void> {
  const ids = new Set<string>();
  for (const scheduler of wanted) {
    const id = jobId(kind.name, scheduler.key);
    ids.add(id);
    await kind.schedule(queue, id, scheduler.repeat, scheduler.payload);
  }
  for (const scheduler of await queue.getJobSchedulers()) {
    if (scheduler.key.startsWith(`${kind.name}/`) && !ids.has(scheduler.key)) {
      await queue.removeJobScheduler(scheduler.key);
      log.info({ scheduler: scheduler.key }, 'job scheduler of a removed mapping deleted');
    }
  }
  log.info({ kind: kind.name, schedulers: ids.size }, 'job schedulers in place');
}
