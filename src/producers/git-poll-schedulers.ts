// The git poll and the change request poll of every mapping that imports from git, each a BullMQ
// job scheduler.
import type { Queue } from 'bullmq';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { Logger } from '../log/create-logger.js';
import { jobId } from '../queue/job-id.js';
import { syncJobSchedulers } from './sync-job-schedulers.js';

const KIND = 'poll-git';

export async function syncGitPollSchedulers(
  queue: Queue,
  mappings: readonly MappingConfig[],
  log: Logger,
): Promise<void> {
  const importing = mappings.filter((mapping) => mapping.direction !== 'space-to-git');
  await syncJobSchedulers(
    queue,
    KIND,
    importing.map((mapping) => ({
      key: mapping.name,
      repeat: { every: mapping.git.poll },
      data: { mapping: mapping.name },
    })),
    log,
  );
}

/** Change request upkeep: list, judge, update and merge, on the `maintain` queue. */
export async function syncChangeRequestPollSchedulers(
  queue: Queue,
  mappings: readonly MappingConfig[],
  log: Logger,
): Promise<void> {
  const importing = mappings.filter((mapping) => mapping.direction !== 'space-to-git');
  await syncJobSchedulers(
    queue,
    'poll-change-requests',
    importing.map((mapping) => ({
      key: mapping.name,
      repeat: { every: mapping.changeRequest.poll },
      data: { mapping: mapping.name },
    })),
    log,
  );
}

/** Polls a mapping now, outside its schedule (the push webhook, `docsync resume`). */
export async function pollNow(queue: Queue, mapping: string, reason: string): Promise<void> {
  await queue.add(
    KIND,
    { mapping },
    { jobId: jobId(KIND, 'now', mapping, reason), removeOnComplete: true, removeOnFail: 100 },
  );
}
