// import-content: a mapping's folder (at a commit, or a watched working copy) into the change
// request docsync keeps for it, and the sync lag from the commit to its import done. Jobs of one
// space never run at once.

import { z } from 'zod';
import { DocsyncError } from '../src/errors/docsync-error.js';
import { storedWarnings } from '../src/import/import-warnings.js';
import { runImport } from '../src/import/run-import.js';
import { defineJob } from '../src/queue/job-definition.js';
import { queueLinkCheck } from './check-links.js';
import { requireApi, requireMapping } from './job-requirements.js';

export const importContentPayload = z.discriminatedUnion('source', [
  z.object({
    source: z.literal('git'),
    mapping: z.string(),
    space: z.string(),
    sha: z.string().regex(/^[0-9a-f]{40,64}$/),
    commit: z.object({
      sha: z.string(),
      subject: z.string(),
      authorName: z.string(),
      /** When the newest commit by a person was made (jobs queued before docsync sent it have none). */
      committedAt: z.iso.datetime().optional(),
    }),
  }),
  z.object({ source: z.literal('worktree'), mapping: z.string(), space: z.string(), path: z.string() }),
]);

export type ImportContentPayload = z.infer<typeof importContentPayload>;

export const importContentJob = defineJob({
  name: 'import-content',
  queue: 'import',
  payload: importContentPayload,
  space: (payload) => payload.space,
  async run(ctx, payload) {
    const mapping = requireMapping(ctx, payload.mapping);
    const api = requireApi(ctx);
    if (ctx.artifacts === undefined)
      throw new DocsyncError(
        'SERVICE_NOT_CONFIGURED',
        'import-content needs the artifact store of the daemon',
      );
    const report = await runImport(
      {
        api,
        state: ctx.state,
        mirrorFor: ctx.mirrorFor,
        artifacts: ctx.artifacts,
        log: ctx.log,
        now: ctx.now,
        signal: ctx.signal,
        dryRun: ctx.dryRun,
        queueLinkCheck: async (check) => {
          await queueLinkCheck(ctx.queues, { ...check, comment: mapping.links.comment });
        },
      },
      payload.source === 'git'
        ? { mapping, source: 'git', sha: payload.sha, commit: payload.commit }
        : { mapping, source: 'worktree', path: payload.path },
    );
    if (report.result === 'imported' && payload.source === 'git' && payload.commit.committedAt !== undefined)
      ctx.metrics.syncLag(
        mapping.name,
        (ctx.now().getTime() - Date.parse(payload.commit.committedAt)) / 1000,
      );
    // The result stays in Redis with the job: its warnings are capped as the state's are.
    const { warnings: _all, ...rest } = report;
    return { ...rest, ...storedWarnings(report.warnings), mapping: mapping.name };
  },
  describe(outcome, payload) {
    if (outcome.result !== 'imported' || outcome.changeRequest === undefined) return undefined;
    const from = payload.source === 'git' ? `commit ${payload.sha.slice(0, 7)}` : 'the working copy';
    return `imported ${from} into change request #${outcome.changeRequest.number}`;
  },
});
