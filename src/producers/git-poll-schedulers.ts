// One BullMQ job scheduler per mapping polls its repository, so that however many docsync
// processes share the Redis, each tick runs once. Schedulers of mappings no longer configured are
// removed at start.
import type { Queue } from 'bullmq';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { Logger } from '../log/create-logger.js';
import { jobId } from '../queue/job-id.js';

const KIND = 'poll-git';

export async function syncGitPollSchedulers(
  queue: Queue,
  mappings: readonly MappingConfig[],
  log: Logger,
): Promise<void> {
  const wanted = new Set<string>();
  for (const mapping of mappings) {
    if (mapping.direction === 'space-to-git') continue;
    const id = jobId(KIND, mapping.name);
    wanted.add(id);
    await queue.upsertJobScheduler(
      id,
      { every: mapping.git.poll },
      { name: KIND, data: { mapping: mapping.name } },
    );
  }
  for (const scheduler of await queue.getJobSchedulers()) {
    const id = scheduler.key;
    if (id.startsWith(`${KIND}/`) && !wanted.has(id)) {
      await queue.removeJobScheduler(id);
      log.info({ scheduler: id }, 'job scheduler of a removed mapping deleted');
    }
  }
  log.info({ mappings: wanted.size }, 'git polls scheduled');
}

/** Polls a mapping now, outside its schedule (the push webhook, `docsync resume`). */
export async function pollNow(queue: Queue, mapping: string, reason: string): Promise<void> {
  await queue.add(
    KIND,
    { mapping },
    { jobId: jobId(KIND, 'now', mapping, reason), removeOnComplete: true, removeOnFail: 100 },
  );
}
