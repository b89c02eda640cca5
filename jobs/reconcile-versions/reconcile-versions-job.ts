// reconcile-versions: one branches mapping's spaces, collection and site section brought to what it
// declares for the branches its repository holds (src/versions/reconcile-versions.ts). Locked per
// mapping, so two reconciles never create the same space; in a dry run it lists the writes only.
import type { BranchMappingConfig } from '../../src/config/branch-mapping-schema.js';
import { DocsyncError } from '../../src/errors/docsync-error.js';
import { syncMappingSchedulers } from '../../src/producers/version-schedulers.js';
import type { JobContext } from '../../src/queue/job-definition.js';
import { derivedMappings, replaceDerivedMappings } from '../../src/versions/derived-mappings.js';
import { expandBranchMappings } from '../../src/versions/expand-branch-mappings.js';
import { listBranches } from '../../src/versions/list-branches.js';
import { reconcileVersions } from '../../src/versions/reconcile-versions.js';
import { RedisVersionStateStore } from '../../src/versions/redis-version-state-store.js';
import { type VersionCall, VersionCalls } from '../../src/versions/version-calls.js';
import type { VersionState, VersionStateStore } from '../../src/versions/version-state.js';
import { defineJob } from '../define-job.js';
import { requireApi } from '../job-requirements.js';
import type { ServicesOf } from '../job-services.js';
import { pollGitKind } from '../poll-git/poll-git-kind.js';
import { reconcileVersionsKind } from './reconcile-versions-kind.js';

const NEEDS = ['config', 'api', 'queues', 'mirrorFor', 'now', 'dryRun'] as const;

/** What a reconcile touches: the service, the repository's branches, and the schedulers of the mappings. */
export type ReconcileVersionsServices = ServicesOf<typeof NEEDS>;

/**
 * Every branch with a live space becomes a single-branch mapping every other job runs unchanged
 * (src/versions/derived-mappings.ts): when they changed, the polls of every mapping are synced
 * again, and a new branch's git poll runs at once, which imports it.
 */
async function deriveMappings(
  ctx: Pick<JobContext<ReconcileVersionsServices>, 'config' | 'queues' | 'now' | 'log'>,
  mapping: BranchMappingConfig,
  state: VersionState,
  store: VersionStateStore,
): Promise<void> {
  const { added, changed } = replaceDerivedMappings(
    ctx.config.mappings,
    mapping,
    derivedMappings(mapping, state),
  );
  if (!changed) return;
  // The other branches mappings as the state has them now (another process may have reconciled
  // them since this one looked): the sync removes the schedulers of every mapping it is not given.
  await expandBranchMappings(ctx.config, store);
  await syncMappingSchedulers(ctx.queues, ctx.config.mappings, ctx.log);
  if (mapping.direction === 'space-to-git') return;
  for (const item of added)
    await pollGitKind.enqueue(
      ctx.queues,
      { mapping: item.name },
      { reason: `version-${ctx.now().getTime()}` },
    );
}

/** How many calls the event log names; the rest are counted. */
const CALLS_NAMED = 12;

function describeCalls(mapping: string, result: ReconcileJobResult): string | undefined {
  if (result.calls.length === 0) return undefined;
  const named = result.calls
    .slice(0, CALLS_NAMED)
    .map((call) => `${call.action}${call.branch === undefined ? '' : ` ${call.branch}`}: ${call.reason}`);
  const more = result.calls.length - named.length;
  return `versions of ${mapping}${result.result === 'planned' ? ' (dry run)' : ''}: ${result.calls.length} change(s), ${result.drift.length} restoring drift (${named.join('; ')}${more > 0 ? `; and ${more} more` : ''})`;
}

type ReconcileJobResult = {
  result: 'unchanged' | 'planned' | 'reconciled';
  versions: number;
  calls: VersionCall[];
  drift: VersionCall[];
  unmatched: string[];
};

export const reconcileVersionsJob = defineJob(reconcileVersionsKind, NEEDS, {
  lockKey: (payload) => `versions/${payload.mapping}`,
  async run(ctx, payload): Promise<ReconcileJobResult> {
    const mapping = ctx.config.branchMappings.find((item) => item.name === payload.mapping);
    if (mapping === undefined)
      throw new DocsyncError(
        'MAPPING_UNKNOWN',
        `branches mapping ${payload.mapping} is not in the configuration any more`,
      );
    const api = requireApi(ctx);
    // Beside docsync's other state: the same Redis and prefix, on the queues' connection.
    const store = new RedisVersionStateStore(ctx.queues.connection, ctx.config.redis.prefix);
    const branches = await listBranches(ctx.mirrorFor(mapping.git.repo), ctx.signal);
    const outcome = await reconcileVersions({
      api,
      mapping,
      branches,
      store,
      calls: new VersionCalls(ctx.dryRun),
      log: ctx.log,
      signal: ctx.signal,
      dryRun: ctx.dryRun,
    });
    if (!ctx.dryRun) await deriveMappings(ctx, mapping, outcome.state, store);
    for (const call of outcome.calls)
      ctx.log.info(
        { action: call.action, branch: call.branch, reason: call.reason, dryRun: ctx.dryRun },
        ctx.dryRun ? 'version call planned' : 'version call made',
      );
    return {
      result: outcome.calls.length === 0 ? 'unchanged' : ctx.dryRun ? 'planned' : 'reconciled',
      versions: outcome.versions,
      calls: outcome.calls,
      drift: outcome.drift,
      unmatched: outcome.unmatched,
    };
  },
  describe: (result, payload) => describeCalls(payload.mapping, result),
});
