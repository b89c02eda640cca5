// The git poll, the change request poll and the space poll of every mapping, each a BullMQ job
// scheduler (the git polls of a repository's mappings in one, the change request polls of many
// mappings at one interval in batches), and the git poll at once (the push webhook, `docsync resume`).
// Their ticks are spread over the interval (the git polls of one repository together), and a new
// one polls at once, paced: a fleet of hundreds never polls in one moment.
import type { Queue } from 'bullmq';
import { pollChangeRequestsKind } from '../../jobs/poll-change-requests/poll-change-requests-kind.js';
import { pollGitKind } from '../../jobs/poll-git/poll-git-kind.js';
import { pollSpaceKind } from '../../jobs/poll-space/poll-space-kind.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { Logger } from '../log/create-logger.js';
import { changeRequestPollSchedules } from './change-request-poll-schedules.js';
import { gitPollSchedules } from './git-poll-schedules.js';
import { type SyncOptions, syncJobSchedulers } from './sync-job-schedulers.js';

/**
 * New polls' first runs this far apart: a fleet of 1,000 mappings starts its first polls within
 * 50 s, without queuing them all in one moment.
 */
export const FIRST_POLL_PACE_MS = 50;

const SPREAD: SyncOptions = { spread: { firstRunPaceMs: FIRST_POLL_PACE_MS } };

const importing = (mappings: readonly MappingConfig[]) =>
  mappings.filter((mapping) => mapping.direction !== 'space-to-git');

/**
 * The git poll of every mapping that imports from git, on the `import` queue: one scheduler per
 * repository and interval (src/producers/git-poll-schedules.ts).
 */
export function syncGitPollSchedulers(
  queue: Queue,
  mappings: readonly MappingConfig[],
  log: Logger,
): Promise<void> {
  return syncJobSchedulers(queue, pollGitKind, gitPollSchedules(importing(mappings)), log, SPREAD);
}

/**
 * Change request upkeep (list, judge, update and merge) of the same mappings, on the `maintain`
 * queue: one scheduler per mapping, or per batch of mappings when many poll at one interval.
 */
export function syncChangeRequestPollSchedulers(
  queue: Queue,
  mappings: readonly MappingConfig[],
  log: Logger,
): Promise<void> {
  return syncJobSchedulers(
    queue,
    pollChangeRequestsKind,
    changeRequestPollSchedules(importing(mappings)),
    log,
    SPREAD,
  );
}

/** The space poll of every mapping that exports to git, on the `export` queue. */
export function syncSpacePollSchedulers(
  queue: Queue,
  mappings: readonly MappingConfig[],
  log: Logger,
): Promise<void> {
  const exporting = mappings.filter((mapping) => mapping.direction !== 'git-to-space');
  const wanted = exporting.map((mapping) => ({
    key: mapping.name,
    repeat: { every: mapping.export.poll },
    payload: { mapping: mapping.name },
  }));
  return syncJobSchedulers(queue, pollSpaceKind, wanted, log, SPREAD);
}

/** Polls a mapping now, outside its schedule (the push webhook, `docsync resume`): once per `reason`. */
export async function pollNow(queue: Queue, mapping: string, reason: string): Promise<void> {
  await pollGitKind.enqueue(queue, { mapping }, { reason });
}
