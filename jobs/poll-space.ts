// poll-space: space to git's producer. Reads the space's revision; a revision docsync made (an
// import, or the merge of a change request docsync imported and nobody edited since) is recorded
// and skipped; any other is exported, job id `export/<space>/<revision>`. Run by a job scheduler
// per mapping with `direction: space-to-git` or `both`.
import { z } from 'zod';
import { defineJob } from '../src/queue/job-definition.js';
import { jobId } from '../src/queue/job-id.js';
import { recordFailure } from '../src/state/record-failure.js';
import { requireApi, requireMapping } from './job-requirements.js';

export const pollSpaceJob = defineJob({
  name: 'poll-space',
  queue: 'export',
  payload: z.object({ mapping: z.string() }),
  async run(ctx, payload) {
    const mapping = requireMapping(ctx, payload.mapping);
    // A job queued before the mapping's direction was changed to git-to-space does nothing.
    if (mapping.direction === 'git-to-space') return { result: 'skipped', reason: 'direction' };
    const api = requireApi(ctx);
    try {
      const space = await api.spaces.get(mapping.space, { signal: ctx.signal });
      const state = await ctx.state.get(mapping.name);
      if (state.lastSeenRevision === space.revision) return { result: 'unchanged', revision: space.revision };
      const origin = await ctx.state.revisionOrigin(mapping.space, space.revision);
      const log = ctx.log.child({ mapping: mapping.name, revision: space.revision });
      if (origin !== undefined) {
        // The space now equals the commit docsync imported: the base a later export compares git with.
        const base =
          origin.sha !== undefined && (state.exportBase === undefined || origin.kind === 'merge')
            ? origin.sha
            : undefined;
        if (!ctx.dryRun)
          await ctx.state.update(mapping.name, {
            lastSeenRevision: space.revision,
            ...(base === undefined ? {} : { exportBase: base }),
          });
        log.info({ origin: origin.kind }, 'space revision came from docsync, not exported');
        return { result: 'skipped', origin: origin.kind };
      }
      if (state.lastSeenRevision === undefined && mapping.direction === 'both') {
        // The first look at a two-way mapping's space: its content may predate what git holds, so
        // it is the baseline, not an edit. Edits from here on are exported.
        if (!ctx.dryRun) await ctx.state.update(mapping.name, { lastSeenRevision: space.revision });
        log.info('space poll baseline recorded');
        return { result: 'baseline', revision: space.revision };
      }
      await ctx.queues
        .get('export')
        .add(
          'export-space',
          { mapping: mapping.name, space: mapping.space, revision: space.revision },
          { jobId: jobId('export', mapping.space, space.revision) },
        );
      if (!ctx.dryRun) await ctx.state.update(mapping.name, { lastSeenRevision: space.revision });
      log.info('space revision changed in the service, export queued');
      return { result: 'export-queued', revision: space.revision };
    } catch (error) {
      if (!ctx.dryRun) await recordFailure(ctx.state, mapping.name, error, ctx.now);
      throw error;
    }
  },
});
