// The git poll and the change request poll of every mapping that imports from git, each a BullMQ
// job scheduler.
import type { Queue } from 'bullmq';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { Logger } from '../log/create-logger.js';
import { jobId } from '../queue/job-id.js';
import { syncJobSchedulers } from './sync-job-schedulers.js';

const KIND = 'poll-git';

/** Scheduled polls of every mapping that imports from git: one scheduler per mapping and kind. */
function syncMappingPolls(
  queue: Queue,
  kind: string,
  mappings: readonly MappingConfig[],
  every: (mapping: MappingConfig) => number,
  log: Logger,
): Promise<void> {
  const importing = mappings.filter((mapping) => mapping.direction !== 'space-to-git');
  return syncJobSchedulers(
    queue,
    kind,
    importing.map((mapping) => ({
      key: mapping.name,
      repeat: { every: every(mapping) },
      data: { mapping: mapping.name },
    })),
    log,
  );
}

/** The git poll, on the `import` queue. */
export function syncGitPollSchedulers(
  queue: Queue,
  mappings: readonly MappingConfig[],
  log: Logger,
): Promise<void> {
  return syncMappingPolls(queue, KIND, mappings, (mapping) => mapping.git.poll, log);
}

/** Change request upkeep: list, judge, update and merge, on the `maintain` queue. */
export function syncChangeRequestPollSchedulers(
  queue: Queue,
  mappings: readonly MappingConfig[],
  log: Logger,
): Promise<void> {
  return syncMappingPolls(
    queue,
    'poll-change-requests',
    mappings,
    (mapping) => mapping.changeRequest.poll,
    log,
  );
}

/** The space poll of every mapping that exports to git, on the `export` queue. */
export function syncSpacePollSchedulers(
  queue: Queue,
  mappings: readonly MappingConfig[],
  log: Logger,
): Promise<void> {
  const exporting = mappings.filter((mapping) => mapping.direction !== 'git-to-space');
  return syncJobSchedulers(
    queue,
    'poll-space',
    exporting.map((mapping) => ({
      key: mapping.name,
      repeat: { every: mapping.export.poll },
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
