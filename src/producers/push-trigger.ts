// The push webhook's effect: polls, at once, every mapping whose repository and branch the push
// names. A push to a branch a branches mapping takes (one of its git.branches patterns), or the
// deletion of such a branch, reconciles that mapping at once: a new branch gets its space and its
// first import without waiting for the next git.poll, and a deleted one follows onBranchDelete.
// A deleted branch of a single-branch mapping triggers nothing. Any push to a mapped repository says
// that its webhooks arrive: its scheduled polls look only every hooks.safetyPoll from then on
// (src/state/repository-hooks.ts).
import type { Queue } from 'bullmq';
import { type BranchMappingConfig, branchMatches } from '../config/branch-mapping-schema.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import { matchesRepository } from '../http/hooks/matches-repository.js';
import type { PushEvent } from '../http/hooks/parse-push-event.js';
import type { RepositoryHookStore } from '../state/repository-hooks.js';
import { pollNow } from './git-poll-schedulers.js';
import { reconcileNow } from './version-schedulers.js';

const BRANCH_REF = 'refs/heads/';

export interface BranchMappingPushes {
  /** The queue reconcile-versions runs on (`maintain`). */
  queue: Queue;
  mappings: readonly BranchMappingConfig[];
}

/** Where the arrival of a repository's webhook is remembered, and the clock (ms). */
export interface HookRecord {
  hooks: Pick<RepositoryHookStore, 'hooked'>;
  now: () => number;
}

export function pushTrigger(
  queue: Queue,
  mappings: readonly MappingConfig[],
  versions?: BranchMappingPushes,
  record?: HookRecord,
) {
  return async (push: PushEvent): Promise<number> => {
    const branch = push.ref.startsWith(BRANCH_REF) ? push.ref.slice(BRANCH_REF.length) : undefined;
    let reconciled = 0;
    if (versions !== undefined && branch !== undefined) {
      const taken = versions.mappings.filter(
        (mapping) =>
          mapping.direction !== 'space-to-git' &&
          mapping.git.branches.some((pattern) => branchMatches(pattern, branch)) &&
          matchesRepository(mapping.git.repo, push.repository.urls),
      );
      // A deletion names the commit the branch was at: two deletions at once are two reconciles.
      const reason =
        push.deleted === true ? `push-deleted-${push.before ?? push.after}` : `push-${push.after}`;
      for (const mapping of taken) await reconcileNow(versions.queue, mapping.name, reason);
      reconciled = taken.length;
    }
    if (push.deleted === true) {
      if (record !== undefined) await recordHook(record, mappings, push);
      return reconciled;
    }
    const matched = mappings.filter(
      (mapping) =>
        mapping.direction !== 'space-to-git' &&
        push.ref === `refs/heads/${mapping.git.branch}` &&
        matchesRepository(mapping.git.repo, push.repository.urls),
    );
    for (const mapping of matched) await pollNow(queue, mapping.name, `push-${push.after}`);
    // Once its polls are queued: a webhook answered 5xx is sent again, or the next tick polls.
    if (record !== undefined) await recordHook(record, mappings, push);
    return matched.length + reconciled;
  };
}

/** The webhooks of every mapped repository the push names arrive: whatever the branch. */
async function recordHook(
  record: HookRecord,
  mappings: readonly MappingConfig[],
  push: PushEvent,
): Promise<void> {
  const hooked = new Set(
    mappings
      .filter((mapping) => matchesRepository(mapping.git.repo, push.repository.urls))
      .map((mapping) => mapping.git.repo),
  );
  const at = record.now();
  for (const repo of hooked) await record.hooks.hooked(repo, at);
}
