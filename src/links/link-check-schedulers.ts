// One BullMQ job scheduler per mapping with a `links` schedule checks the links of the space's
// live content, so that however many docsync processes share the Redis, each tick runs once.
// Schedulers of mappings no longer scheduled are removed at start.
import type { Queue } from 'bullmq';
import type { MappingConfig } from '../config/mapping-schema.js';
import { toSchedule } from '../config/schedule-schema.js';
import type { Logger } from '../log/create-logger.js';
import { jobId } from '../queue/job-id.js';
import { checkLinksKind, LATEST_REVISION } from '../queue/kinds/check-links-kind.js';

const KIND = 'links-schedule';

/** Takes the 'links' queue. */
export async function syncLinkCheckSchedulers(
  queue: Queue,
  mappings: readonly Pick<MappingConfig, 'name' | 'space' | 'links'>[],
  log: Logger,
): Promise<void> {
  const wanted = new Set<string>();
  for (const mapping of mappings) {
    const schedule = toSchedule(mapping.links);
    if (schedule === undefined) continue;
    const id = linkCheckSchedulerId(mapping.name);
    wanted.add(id);
    await checkLinksKind.schedule(queue, id, schedule, { space: mapping.space, revision: LATEST_REVISION });
  }
  for (const scheduler of await queue.getJobSchedulers()) {
    const id = scheduler.key;
    if (id.startsWith(`${KIND}/`) && !wanted.has(id)) {
      await queue.removeJobScheduler(id);
      log.info({ scheduler: id }, 'link check scheduler of an unscheduled mapping deleted');
    }
  }
  log.info({ mappings: wanted.size }, 'link checks scheduled');
}

export function linkCheckSchedulerId(mapping: string): string {
  return jobId(KIND, mapping);
}
