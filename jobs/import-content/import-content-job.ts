// import-content: a mapping's folder (at a commit, or a watched working copy) into the change
// request docsync keeps for it, and the sync lag from the commit to its import done. Jobs of one
// space never run at once.

import {
  queueCommitStatus,
  queueFailedImportStatus,
  queueImportStatus,
} from '../../src/commit-status/queue-commit-status.js';
import { DocsyncError } from '../../src/errors/docsync-error.js';
import { storedWarnings } from '../../src/import/import-warnings.js';
import { runImport } from '../../src/import/run-import.js';
import { checkLinksKind } from '../check-links/check-links-kind.js';
import { defineJob } from '../define-job.js';
import { requireApi, requireMapping } from '../job-requirements.js';
import type { ServicesOf } from '../job-services.js';
import { importContentKind, worktreeDebounce } from './import-content-kind.js';

/**
 * A working copy's import deferred behind an export looks again this long after: no later poll
 * would bring it back (a commit's import is queued again by the next git poll), and a save made
 * meanwhile replaces it, as saves replace each other. One deferred until the person pulls is not
 * looked at again: the pull changes files, which queues an import.
 */
export const DEFERRED_WORKTREE_RETRY_MS = 3_000;

const NEEDS = [
  'config',
  'api',
  'artifacts',
  'mirrorFor',
  'stores',
  'queues',
  'now',
  'dryRun',
  'metrics',
] as const;

/** What an import touches: the services the daemon hands it, and a unit test fakes. */
export type ImportContentServices = ServicesOf<typeof NEEDS>;

export const importContentJob = defineJob(importContentKind, NEEDS, {
  // People wait for it: its reads of the service go before the scheduled polls'.
  servicePriority: 'high',
  lockKey: (payload) => payload.space,
  async run(ctx, payload) {
    const mapping = requireMapping(ctx, payload.mapping);
    const api = requireApi(ctx);
    if (ctx.artifacts === undefined)
      throw new DocsyncError(
        'SERVICE_NOT_CONFIGURED',
        'import-content needs the artifact store of the daemon',
      );
    if (payload.source === 'git')
      await queueCommitStatus(ctx, mapping, { sha: payload.sha, event: 'importing' });
    const report = await runImport(
      {
        api,
        state: ctx.stores.mappings,
        mirrorFor: ctx.mirrorFor,
        artifacts: ctx.artifacts,
        log: ctx.log,
        now: ctx.now,
        signal: ctx.signal,
        dryRun: ctx.dryRun,
        awaitExports: true,
        queueLinkCheck: async (check) => {
          await checkLinksKind.enqueue(ctx.queues, { ...check, comment: mapping.links.comment });
        },
      },
      payload.source === 'git'
        ? { mapping, source: 'git', sha: payload.sha, commit: payload.commit }
        : { mapping, source: 'worktree', path: payload.path },
    );
    if (payload.source === 'git') await queueImportStatus(ctx, mapping, payload.sha, report);
    if (report.waitingFor === 'export' && payload.source === 'worktree' && !ctx.dryRun)
      await importContentKind.enqueue(ctx.queues, payload, {
        reason: 'deferred',
        delay: DEFERRED_WORKTREE_RETRY_MS,
        deduplication: worktreeDebounce(mapping.name, DEFERRED_WORKTREE_RETRY_MS),
      });
    if (report.result === 'imported' && payload.source === 'git' && payload.commit.committedAt !== undefined)
      ctx.metrics.syncLag(
        mapping.name,
        (ctx.now().getTime() - Date.parse(payload.commit.committedAt)) / 1000,
      );
    // The result stays in Redis with the job: its warnings are capped as the state's are.
    const { warnings: _all, ...rest } = report;
    return { ...rest, ...storedWarnings(report.warnings), mapping: mapping.name };
  },
  // The runner records the failure for the mapping; the commit's status says it too, once no
  // attempt is left.
  async afterFailure(ctx, payload, error) {
    if (payload.source === 'git') await queueFailedImportStatus(ctx, payload.mapping, payload.sha, error);
  },
  describe(outcome, payload) {
    if (outcome.result !== 'imported' || outcome.changeRequest === undefined) return undefined;
    const from = payload.source === 'git' ? `commit ${payload.sha.slice(0, 7)}` : 'the working copy';
    return `imported ${from} into change request #${outcome.changeRequest.number}`;
  },
});
