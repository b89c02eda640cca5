// poll-space: space to git's producer. Reads the space's revision; a revision docsync made (an
// import, or the merge of a change request docsync imported and nobody edited since, whoever merged
// it) is recorded and skipped; any other is exported, job id `export/<space>/<revision>`. Run by a
// job scheduler per mapping with `direction: space-to-git` or `both`.
import type { MappingConfig } from '../src/config/mapping-schema.js';
import { baseAfterMerge } from '../src/export/base-after-merge.js';
import { defineJob, type JobContext } from '../src/queue/job-definition.js';
import { exportSpaceKind } from '../src/queue/kinds/export-space-kind.js';
import { pollSpaceKind } from '../src/queue/kinds/poll-space-kind.js';
import { recoverSpaceState } from '../src/recovery/recover-space-state.js';
import { pendingExport } from '../src/state/export-pending.js';
import type { MappingState, RevisionOrigin } from '../src/state/mapping-state.js';
import { recordMappingFailure, recordMappingSuccess } from '../src/state/record-failure.js';
import type { MergedRevisionsPlan } from '../src/upkeep/plan-merged-revisions.js';
import { recogniseMerges } from '../src/upkeep/recognise-merges.js';
import { requireApi, requireMapping } from './job-requirements.js';

/**
 * An export queued for an edit and not finished is queued again: one job while the first still
 * waits or retries, and once it failed for good, a run again only as its back-off allows (2 s,
 * doubling per failure in a row, at most 10 minutes: src/queue/work-back-off.ts), or at once on
 * `docsync retry` or a restart. Imports wait for it, whatever revision the space is at since, and
 * /status shows its failure and next try meanwhile.
 */
async function requeuePendingExport(
  ctx: JobContext,
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

export const pollSpaceJob = defineJob(pollSpaceKind, {
  async run(ctx, payload) {
    const mapping = requireMapping(ctx, payload.mapping);
    // A job queued before the mapping's direction was changed to git-to-space does nothing.
    if (mapping.direction === 'git-to-space') return { result: 'skipped', reason: 'direction' };
    const api = requireApi(ctx);
    const space = await api.spaces.get(mapping.space, { signal: ctx.signal });
    const state = await ctx.stores.mappings.get(mapping.name);
    let origin: RevisionOrigin | undefined;
    if (state.lastSeenRevision === space.revision) {
      // A revision seen before may have learnt its commit since: docsync's content first imported
      // from a working copy names the commit holding it once the git poll finds that commit
      // (src/import/attach-commit-to-worktree-import.ts). Until a two-way mapping has its base, such
      // a revision is looked at again.
      if (mapping.direction === 'both' && state.exportBase === undefined)
        origin = await ctx.stores.mappings.revisionOrigin(mapping.space, space.revision);
      if (origin?.sha === undefined) {
        const pending = await requeuePendingExport(ctx, mapping, state);
        if (pending !== undefined) return { result: 'export-pending', revision: pending };
        return { result: 'unchanged', revision: space.revision };
      }
    }
    origin ??= await ctx.stores.mappings.revisionOrigin(mapping.space, space.revision);
    const log = ctx.log.child({ mapping: mapping.name, revision: space.revision });
    // No state (Redis lost it, or a new mapping): git and the service say whether the space is at
    // docsync's own content and which commit it was last known to equal.
    const recovered =
      state.lastSeenRevision === undefined && origin === undefined
        ? await recoverSpaceState({
            api,
            store: ctx.stores.mappings,
            mirror: ctx.mirrorFor(mapping.git.repo),
            mapping,
            revision: space.revision,
            state,
            signal: ctx.signal,
            dryRun: ctx.dryRun,
            log: ctx.log,
            now: ctx.now,
          })
        : undefined;
    if (recovered?.kind === 'exported') {
      if (!ctx.dryRun)
        await ctx.stores.mappings.update(mapping.name, {
          lastSeenRevision: space.revision,
          ...(state.exportBase === undefined ? { exportBase: recovered.base } : {}),
        });
      log.info(
        { exportBase: recovered.base },
        'space revision is the one docsync exported, not exported again',
      );
      return { result: 'skipped', origin: 'export' };
    }
    let merges: MergedRevisionsPlan | undefined;
    if (origin === undefined) {
      // A person may have merged a change request docsync imported into: this revision, or one
      // before it, may be docsync's own after all. Read only on the way to an export, and before
      // the change request poll could have seen the merge.
      merges = await recogniseMerges({
        api,
        store: ctx.stores.mappings,
        mapping: mapping.name,
        space: mapping.space,
        revision: space.revision,
        state,
        signal: ctx.signal,
        dryRun: ctx.dryRun,
      });
      origin = merges.current;
      if (merges.merged)
        log.info(
          {
            settledChangeRequests: merges.settle,
            docsyncRevisions: merges.origins.map((entry) => entry.revision),
            exportBase: merges.exportBase,
          },
          'change request docsync imported into was merged in the service',
        );
    }
    if (origin !== undefined) {
      // The space now equals the commit docsync imported: the base a later export compares git with.
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
          lastSeenRevision: space.revision,
          ...(base === undefined ? {} : { exportBase: base }),
        });
      log.info({ origin: origin.kind }, 'space revision came from docsync, not exported');
      await requeuePendingExport(ctx, mapping, state);
      return { result: 'skipped', origin: origin.kind };
    }
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
      if (!ctx.dryRun) await ctx.stores.mappings.update(mapping.name, { lastSeenRevision: space.revision });
      log.info('space poll baseline recorded');
      return { result: 'baseline', revision: space.revision };
    }
    // Before the export is queued, which reads it: git's changes since that commit are git's own.
    const base = merges?.exportBase ?? (recovered?.kind === 'changed' ? recovered.base : undefined);
    if (base !== undefined && !ctx.dryRun)
      await ctx.stores.mappings.update(mapping.name, { exportBase: base });
    await exportSpaceKind.enqueue(ctx.queues, {
      mapping: mapping.name,
      space: mapping.space,
      revision: space.revision,
    });
    if (!ctx.dryRun)
      await ctx.stores.mappings.update(mapping.name, {
        lastSeenRevision: space.revision,
        exportQueued: space.revision,
      });
    log.info('space revision changed in the service, export queued');
    return { result: 'export-queued', revision: space.revision };
  },
  onFailure: (ctx, payload, error) => recordMappingFailure(ctx, payload.mapping, error),
  onSuccess: (ctx, payload) => recordMappingSuccess(ctx, payload.mapping),
});
