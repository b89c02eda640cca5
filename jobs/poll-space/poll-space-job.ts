// poll-space: space to git's producer. Reads the space's revision; a revision docsync made (an
// import, or the merge of a change request docsync imported and nobody edited since, whoever merged
// it) is recorded and skipped; any other is exported, job id `export/<space>/<revision>`. Run by a
// job scheduler per mapping with `direction: space-to-git` or `both`.
import type { DocsApiClient } from '../../src/api/docs-api-client.js';
import type { MappingConfig } from '../../src/config/mapping-schema.js';
import { baseAfterMerge } from '../../src/export/base-after-merge.js';
import type { Logger } from '../../src/log/create-logger.js';
import type { JobContext } from '../../src/queue/job-definition.js';
import { recoverSpaceState } from '../../src/recovery/recover-space-state.js';
import { pendingExport } from '../../src/state/export-pending.js';
import type { MappingState, RevisionOrigin } from '../../src/state/mapping-state.js';
import type { MergedRevisionsPlan } from '../../src/upkeep/plan-merged-revisions.js';
import { recogniseMerges } from '../../src/upkeep/recognise-merges.js';
import { defineJob } from '../define-job.js';
import { exportSpaceKind } from '../export-space/export-space-kind.js';
import { requireApi, requireMapping } from '../job-requirements.js';
import type { ServicesOf } from '../job-services.js';
import { pollSpaceKind } from './poll-space-kind.js';

const NEEDS = ['config', 'api', 'mirrorFor', 'stores', 'queues', 'now', 'dryRun'] as const;

/** What a space poll touches: the services the daemon hands it, and a unit test fakes. */
export type PollSpaceServices = ServicesOf<typeof NEEDS>;

/**
 * An export queued for an edit and not finished is queued again: one job while the first still
 * waits or retries, and once it failed for good, a run again only as its back-off allows (2 s,
 * doubling per failure in a row, at most 10 minutes: src/queue/work-back-off.ts), or at once on
 * `docsync retry` or a restart. Imports wait for it, whatever revision the space is at since, and
 * /status shows its failure and next try meanwhile.
 */
async function requeuePendingExport(
  ctx: Pick<PollSpaceServices, 'queues' | 'dryRun'>,
  mapping: MappingConfig,
  state: MappingState,
): Promise<string | undefined> {
  const pending = pendingExport(state);
  if (pending === undefined || ctx.dryRun) return undefined;
  await exportSpaceKind.enqueue(ctx.queues, {
    mapping: mapping.name,
    space: mapping.space,
    revision: pending,
  });
  return pending;
}

export const pollSpaceJob = defineJob(pollSpaceKind, NEEDS, {
  async run(ctx, payload) {
    const mapping = requireMapping(ctx, payload.mapping);
    // A job queued before the mapping's direction was changed to git-to-space does nothing.
    if (mapping.direction === 'git-to-space') return { result: 'skipped', reason: 'direction' } as const;
    const api = requireApi(ctx);
    const space = await api.spaces.get(mapping.space, { signal: ctx.signal });
    const state = await ctx.stores.mappings.get(mapping.name);
    const seen = await lookAgain(ctx, mapping, state, space.revision);
    if (seen.report !== undefined) return seen.report;
    const log = ctx.log.child({ mapping: mapping.name, revision: space.revision });
    const polled: Polled = { ctx, api, mapping, state, revision: space.revision, log };
    let origin = seen.origin ?? (await ctx.stores.mappings.revisionOrigin(mapping.space, space.revision));
    // No state (Redis lost it, or a new mapping): git and the service say whether the space is at
    // docsync's own content and which commit it was last known to equal.
    const recovered =
      state.lastSeenRevision === undefined && origin === undefined ? await recoverState(polled) : undefined;
    if (recovered?.kind === 'exported') return await recordExportedBefore(polled, recovered.base);
    let merges: MergedRevisionsPlan | undefined;
    if (origin === undefined) {
      merges = await recogniseMergesOf(polled);
      origin = merges.current;
    }
    if (origin !== undefined) return await recordDocsyncRevision(polled, origin);
    return await queueExport(polled, merges, recovered);
  },
});

/** One poll of a mapping's space: what every step reads. */
interface Polled {
  ctx: JobContext<PollSpaceServices>;
  api: DocsApiClient;
  mapping: MappingConfig;
  state: MappingState;
  /** The space's revision now. */
  revision: string;
  log: Logger;
}

/**
 * A revision seen before: reported unchanged (or its pending export queued again), unless it is
 * looked at again for the commit it may have learnt since (then its origin, which names one).
 */
async function lookAgain(
  ctx: Pick<PollSpaceServices, 'stores' | 'queues' | 'dryRun'>,
  mapping: MappingConfig,
  state: MappingState,
  revision: string,
): Promise<{
  report?: { result: 'export-pending' | 'unchanged'; revision: string };
  origin?: RevisionOrigin;
}> {
  if (state.lastSeenRevision !== revision) return {};
  // A revision seen before may have learnt its commit since: docsync's content first imported
  // from a working copy names the commit holding it once the git poll finds that commit
  // (src/import/attach-commit-to-worktree-import.ts). Until a two-way mapping has its base, such
  // a revision is looked at again.
  let origin: RevisionOrigin | undefined;
  if (mapping.direction === 'both' && state.exportBase === undefined)
    origin = await ctx.stores.mappings.revisionOrigin(mapping.space, revision);
  if (origin?.sha !== undefined) return { origin };
  const pending = await requeuePendingExport(ctx, mapping, state);
  if (pending !== undefined) return { report: { result: 'export-pending', revision: pending } };
  return { report: { result: 'unchanged', revision } };
}

function recoverState({ ctx, api, mapping, state, revision }: Polled) {
  return recoverSpaceState({
    api,
    store: ctx.stores.mappings,
    mirror: ctx.mirrorFor(mapping.git.repo),
    mapping,
    revision,
    state,
    signal: ctx.signal,
    dryRun: ctx.dryRun,
    log: ctx.log,
    now: ctx.now,
  });
}

/** The space is at what docsync exported (found by the recovery): recorded, not exported again. */
async function recordExportedBefore({ ctx, mapping, state, revision, log }: Polled, base: string) {
  if (!ctx.dryRun)
    await ctx.stores.mappings.update(mapping.name, {
      lastSeenRevision: revision,
      ...(state.exportBase === undefined ? { exportBase: base } : {}),
    });
  log.info({ exportBase: base }, 'space revision is the one docsync exported, not exported again');
  return { result: 'skipped', origin: 'export' } as const;
}

/**
 * A person may have merged a change request docsync imported into: this revision, or one
 * before it, may be docsync's own after all. Read only on the way to an export, and before
 * the change request poll could have seen the merge.
 */
async function recogniseMergesOf({ ctx, api, mapping, state, revision, log }: Polled) {
  const merges = await recogniseMerges({
    api,
    store: ctx.stores.mappings,
    mapping: mapping.name,
    space: mapping.space,
    revision,
    state,
    signal: ctx.signal,
    dryRun: ctx.dryRun,
  });
  if (merges.merged)
    log.info(
      {
        settledChangeRequests: merges.settle,
        docsyncRevisions: merges.origins.map((entry) => entry.revision),
        exportBase: merges.exportBase,
      },
      'change request docsync imported into was merged in the service',
    );
  return merges;
}

/** The space now equals the commit docsync imported: the base a later export compares git with. */
async function recordDocsyncRevision(polled: Polled, origin: RevisionOrigin) {
  const { ctx, mapping, state, revision, log } = polled;
  const base =
    origin.sha !== undefined && (state.exportBase === undefined || origin.kind === 'merge')
      ? await baseAfterMerge(
          ctx.mirrorFor(mapping.git.repo),
          mapping.git.dir,
          origin.sha,
          state.exportBase,
          ctx.signal,
        )
      : undefined;
  if (!ctx.dryRun)
    await ctx.stores.mappings.update(mapping.name, {
      lastSeenRevision: revision,
      ...(base === undefined ? {} : { exportBase: base }),
    });
  log.info({ origin: origin.kind }, 'space revision came from docsync, not exported');
  await requeuePendingExport(ctx, mapping, state);
  return { result: 'skipped', origin: origin.kind } as const;
}

/** A revision docsync did not make: the export queued, or, on a first look, the baseline recorded. */
async function queueExport(
  { ctx, mapping, state, revision, log }: Polled,
  merges: MergedRevisionsPlan | undefined,
  recovered: Awaited<ReturnType<typeof recoverState>> | undefined,
) {
  // The first look at a two-way mapping's space: its content may predate what git holds, so it
  // is the baseline, not an edit. Not so after a merge of docsync's content: that content is
  // known (it descends from the commit imported), and edits on it are exported.
  if (
    state.lastSeenRevision === undefined &&
    mapping.direction === 'both' &&
    merges?.merged !== true &&
    recovered?.kind !== 'changed' &&
    recovered?.kind !== 'moved'
  ) {
    if (!ctx.dryRun) await ctx.stores.mappings.update(mapping.name, { lastSeenRevision: revision });
    log.info('space poll baseline recorded');
    return { result: 'baseline', revision } as const;
  }
  // Before the export is queued, which reads it: git's changes since that commit are git's own.
  const base = merges?.exportBase ?? (recovered?.kind === 'changed' ? recovered.base : undefined);
  if (base !== undefined && !ctx.dryRun) await ctx.stores.mappings.update(mapping.name, { exportBase: base });
  await exportSpaceKind.enqueue(ctx.queues, { mapping: mapping.name, space: mapping.space, revision });
  if (!ctx.dryRun)
    await ctx.stores.mappings.update(mapping.name, { lastSeenRevision: revision, exportQueued: revision });
  log.info('space revision changed in the service, export queued');
  return { result: 'export-queued', revision } as const;
}
