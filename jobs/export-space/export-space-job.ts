// export-space: the edits of one space revision written back to git as one commit with the
// `Docsync-Revision` trailer (src/export/run-export.ts), or to a conflict branch when git moved.
import { runExport } from '../../src/export/run-export.js';
import { defineJob } from '../define-job.js';
import { requireApi, requireMapping } from '../job-requirements.js';
import type { ServicesOf } from '../job-services.js';
import { exportSpaceKind } from './export-space-kind.js';

const NEEDS = ['config', 'api', 'mirrorFor', 'stores', 'now', 'dryRun'] as const;

/** What an export touches: the services the daemon hands it, and a unit test fakes. */
export type ExportSpaceServices = ServicesOf<typeof NEEDS>;

export const exportSpaceJob = defineJob(exportSpaceKind, NEEDS, {
  // People wait for it: its reads of the service go before the scheduled polls'.
  servicePriority: 'high',
  lockKey: (payload) => payload.space,
  async run(ctx, payload) {
    const mapping = requireMapping(ctx, payload.mapping);
    // A job queued before the mapping's direction was changed to git-to-space does nothing.
    if (mapping.direction === 'git-to-space') return { result: 'skipped' as const, reason: 'direction' };
    const api = requireApi(ctx);
    const outcome = await runExport(
      {
        api,
        mirror: ctx.mirrorFor(mapping.git.repo),
        state: ctx.stores.mappings,
        log: ctx.log,
        now: ctx.now,
        signal: ctx.signal,
        dryRun: ctx.dryRun,
      },
      mapping,
    );
    // Imports wait for this (src/import/run-import.ts): the edit it was queued for is in git now.
    if (!ctx.dryRun) await ctx.stores.mappings.update(mapping.name, { exportFinished: payload.revision });
    return { ...outcome };
  },
  describe(outcome) {
    if (outcome.result === 'committed')
      return `exported revision ${outcome.revision} to git as commit ${outcome.sha?.slice(0, 7)}`;
    if (outcome.result === 'conflict')
      return `revision ${outcome.revision} conflicts with git: committed to branch ${outcome.branch}`;
    return undefined;
  },
});
