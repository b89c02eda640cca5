// Job schedulers of one kind (`poll-git/<mapping>`, `poll-change-requests/<mapping>`...): the
// wanted ones are created or updated, those of mappings no longer configured are removed. A
// scheduler runs each tick once, however many docsync processes share the Redis.
import type { Queue, RepeatOptions } from 'bullmq';
import type { Logger } from '../log/create-logger.js';
import { jobId } from '../queue/job-id.js';

export interface WantedScheduler {
  /** The mapping (or spec) it belongs to: the scheduler id is `<kind>/<key>`. */
  key: string;
  repeat: Omit<RepeatOptions, 'key'>;
  data: Record<string, unknown>;
}

export async function syncJobSchedulers(
  queue: Queue,
  kind: string,
  wanted: readonly WantedScheduler[],
  log: Logger,
): Promise<void> {
  const ids = new Set<string>();
  for (const scheduler of wanted) {
    const id = jobId(kind, scheduler.key);
    ids.add(id);
    await queue.upsertJobScheduler(id, scheduler.repeat, { name: kind, data: scheduler.data });
  }
  for (const scheduler of await queue.getJobSchedulers()) {
    if (scheduler.key.startsWith(`${kind}/`) && !ids.has(scheduler.key)) {
      await queue.removeJobScheduler(scheduler.key);
      log.info({ scheduler: scheduler.key }, 'job scheduler of a removed mapping deleted');
    }
  }
  log.info({ kind, schedulers: ids.size }, 'job schedulers in place');
}
