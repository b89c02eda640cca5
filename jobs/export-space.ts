// export-space: the edits of one space revision written back to git as one commit with the
// `Docsync-Revision` trailer (src/export/run-export.ts), or to a conflict branch when git moved.
import { z } from 'zod';
import { runExport } from '../src/export/run-export.js';
import { defineJob } from '../src/queue/job-definition.js';
import { recordFailure } from '../src/state/record-failure.js';
import { requireApi, requireMapping } from './job-requirements.js';

export const exportSpaceJob = defineJob({
  name: 'export-space',
  queue: 'export',
  payload: z.object({ mapping: z.string(), space: z.string(), revision: z.string() }),
  space: (payload) => payload.space,
  async run(ctx, payload) {
    const mapping = requireMapping(ctx, payload.mapping);
    // A job queued before the mapping's direction was changed to git-to-space does nothing.
    if (mapping.direction === 'git-to-space') return { result: 'skipped' as const, reason: 'direction' };
    const api = requireApi(ctx);
    const service = ctx.config.service;
    if (service === undefined) throw new Error('unreachable: requireApi checked the service');
    try {
      const outcome = await runExport(
        {
          api,
          service,
          mirror: ctx.mirrorFor(mapping.git.repo),
          state: ctx.state,
          log: ctx.log,
          now: ctx.now,
          signal: ctx.signal,
          dryRun: ctx.dryRun,
        },
        mapping,
      );
      return { ...outcome };
    } catch (error) {
      if (!ctx.dryRun && !ctx.signal.aborted) await recordFailure(ctx.state, mapping.name, error, ctx.now);
      throw error;
    }
  },
  describe(outcome) {
    if (outcome.result === 'committed')
      return `exported revision ${outcome.revision} to git as commit ${outcome.sha?.slice(0, 7)}`;
    if (outcome.result === 'conflict')
      return `revision ${outcome.revision} conflicts with git: committed to branch ${outcome.branch}`;
    return undefined;
  },
});
