// The reconcile of every branches mapping, a BullMQ job scheduler each on the `maintain` queue, at
// the mapping's git.poll: each run fetches the repository and lists its branches, so it is the
// mapping's git poll too. A push asks for one at once (reconcileNow).
import type { Queue } from 'bullmq';
import { reconcileVersionsKind } from '../../jobs/reconcile-versions/reconcile-versions-kind.js';
import type { BranchMappingConfig } from '../config/branch-mapping-schema.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { Logger } from '../log/create-logger.js';
import type { Queues } from '../queue/queues.js';
import {
  syncChangeRequestPollSchedulers,
  syncGitPollSchedulers,
  syncSpacePollSchedulers,
} from './git-poll-schedulers.js';
import { syncLinkCheckSchedulers } from './link-check-schedulers.js';
import { syncJobSchedulers } from './sync-job-schedulers.js';

export function syncVersionSchedulers(
  queue: Queue,
  mappings: readonly BranchMappingConfig[],
  log: Logger,
): Promise<void> {
  return syncJobSchedulers(
    queue,
    reconcileVersionsKind,
    mappings.map((mapping) => ({
      key: mapping.name,
      repeat: { every: mapping.git.poll },
      payload: { mapping: mapping.name },
    })),
    log,
  );
}

/** Reconciles a branches mapping now, outside its schedule: once per `reason` (a push's sha). */
export async function reconcileNow(queue: Queue, mapping: string, reason: string): Promise<void> {
  await reconcileVersionsKind.enqueue(queue, { mapping }, { reason });
}

/**
 * The polls of every mapping again, after a reconcile changed the derived mappings of a branches
 * mapping: those of new branches are created, those of retired ones removed, the rest left as they
 * are. Takes docsync's queues.
 */
export async function syncMappingSchedulers(
  queues: Pick<Queues, 'get'>,
  mappings: readonly MappingConfig[],
  log: Logger,
): Promise<void> {
  await syncGitPollSchedulers(queues.get('import'), mappings, log);
  await syncChangeRequestPollSchedulers(queues.get('maintain'), mappings, log);
  await syncLinkCheckSchedulers(queues.get('links'), mappings, log);
  await syncSpacePollSchedulers(queues.get('export'), mappings, log);
}
