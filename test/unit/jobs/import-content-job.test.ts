// The import job's own decisions, with its services faked: what it needs before it starts, what it
// does with an import deferred behind an export (a working copy's is queued again, a commit's waits
// for the next git poll), the commit statuses it asks for, a failure's status, and its sentence for
// people. Bundling and importing a folder into the service are runImport's, run against git and the
// emulator in test/integration/import/ and export/ (deferred-worktree-import, import-waits-for-*).
import { describe, expect, it } from 'vitest';
import {
  DEFERRED_WORKTREE_RETRY_MS,
  type ImportContentServices,
  importContentJob,
} from '../../../jobs/import-content/import-content-job.js';
import {
  type ImportContentPayload,
  worktreeDebounce,
} from '../../../jobs/import-content/import-content-kind.js';
import type { DocsApiClient } from '../../../src/api/docs-api-client.js';
import type { BundleStore } from '../../../src/artifacts/bundle-store.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { DocsyncError } from '../../../src/errors/docsync-error.js';
import type { GitMirror } from '../../../src/git/git-mirror.js';
import { DocsyncMetrics } from '../../../src/metrics/docsync-metrics.js';
import type { RunningJob } from '../../../src/queue/job-definition.js';
import type { MappingState } from '../../../src/state/mapping-state.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { fakeJobRun } from '../../support/fake-job-run.js';
import { recordingQueues } from '../../support/recording-queues.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const SHA = 'a'.repeat(40);

const config = parseConfig(
  JSON.stringify({
    service: { baseUrl: 'https://docs.example.com/v1', token: 't' },
    mappings: [
      {
        name: 'two-way',
        space: 'spc_1',
        direction: 'both',
        git: { repo: './repo', branch: 'main' },
        report: { github: { repo: 'acme/docs', tokenEnv: 'GH_TOKEN' } },
      },
      { name: 'quiet', space: 'spc_2', git: { repo: './quiet', branch: 'main' } },
    ],
  }),
  'docsync.yaml',
  { GH_TOKEN: 'token' },
);

const fromGit = (mapping = 'two-way'): ImportContentPayload => ({
  source: 'git',
  mapping,
  space: mapping === 'two-way' ? 'spc_1' : 'spc_2',
  sha: SHA,
  commit: { sha: SHA, subject: 'Edit the guide', authorName: 'Ana', committedAt: '2026-03-01T11:00:00Z' },
});

const fromWorktree: ImportContentPayload = {
  source: 'worktree',
  mapping: 'two-way',
  space: 'spc_1',
  path: '/home/ana/docs',
};

/** The decisions below come before any bundle: a bundle reserved is a test failure. */
const artifacts: BundleStore = {
  reserve: () => {
    throw new Error('this import must not bundle anything');
  },
  publish: async () => 'https://docsync.example.com/artifacts/none',
  remove: async () => {},
  start: () => {},
  close: async () => {},
};

async function world(
  state: MappingState = {},
  options: { dryRun?: boolean; job?: Partial<RunningJob> } = {},
) {
  const { queues, added } = recordingQueues();
  const services: ImportContentServices = {
    config,
    // No call reaches the service on these paths: an export still queued is read from the state.
    api: {} as Pick<DocsApiClient, never> as DocsApiClient,
    artifacts,
    mirrorFor: () => ({ hasCommit: async () => true }) as Pick<GitMirror, 'hasCommit'> as GitMirror,
    stores: memoryStores(() => NOW),
    queues,
    now: () => NOW,
    dryRun: options.dryRun ?? false,
    metrics: new DocsyncMetrics(),
  };
  await services.stores.mappings.update('two-way', state);
  const job = fakeJobRun({ name: 'import-content', queue: 'import', ...options.job });
  const ctx = { ...services, ...job.run };
  const statuses = () =>
    added.filter((added) => added.name === 'report-commit-status').map((added) => added.data);
  return { ctx, services, added, statuses, outcomes: job.outcomes };
}

/** An export queued for revision rev-2 and not finished: the space holds edits git does not. */
const exportPending: MappingState = { exportQueued: 'rev-2' };

describe('import-content job', () => {
  it('fails as SERVICE_NOT_CONFIGURED without the artifact store, before asking for any status', async () => {
    const { ctx, added } = await world();
    await expect(importContentJob.run({ ...ctx, artifacts: undefined }, fromGit())).rejects.toMatchObject({
      code: 'SERVICE_NOT_CONFIGURED',
      message: expect.stringContaining('artifact store'),
    });
    expect(added).toEqual([]);
  });

  it('fails as SERVICE_NOT_CONFIGURED without a service', async () => {
    const { ctx } = await world();
    await expect(importContentJob.run({ ...ctx, api: undefined }, fromGit())).rejects.toMatchObject({
      code: 'SERVICE_NOT_CONFIGURED',
    });
  });

  it('queues a working copy import deferred behind an export again, debounced as saves are', async () => {
    const { ctx, added } = await world(exportPending);
    expect(await importContentJob.run(ctx, fromWorktree)).toMatchObject({
      result: 'deferred',
      waitingFor: 'export',
      mapping: 'two-way',
    });
    expect(added).toEqual([
      {
        queue: 'import',
        name: 'import-content',
        data: fromWorktree,
        opts: {
          delay: DEFERRED_WORKTREE_RETRY_MS,
          deduplication: worktreeDebounce('two-way', DEFERRED_WORKTREE_RETRY_MS),
        },
      },
    ]);
  });

  it('queues nothing again in a dry run', async () => {
    const { ctx, added } = await world(exportPending, { dryRun: true });
    expect(await importContentJob.run(ctx, fromWorktree)).toMatchObject({ result: 'deferred' });
    expect(added).toEqual([]);
  });

  it("leaves a commit's import deferred behind an export to the next git poll, and says so on the commit", async () => {
    const { ctx, added, statuses } = await world(exportPending);
    expect(await importContentJob.run(ctx, fromGit())).toMatchObject({
      result: 'deferred',
      waitingFor: 'export',
    });
    expect(added.filter((job) => job.name === 'import-content')).toEqual([]);
    expect(statuses()).toEqual([
      { mapping: 'two-way', sha: SHA, event: 'importing' },
      { mapping: 'two-way', sha: SHA, event: 'deferred' },
    ]);
  });

  it("says on the commit that a paused mapping's import was skipped", async () => {
    const { ctx, statuses } = await world({
      paused: { reason: 'force-push', detail: 'rewritten', at: NOW.toISOString() },
    });
    expect(await importContentJob.run(ctx, fromGit())).toMatchObject({ result: 'paused' });
    expect(statuses()).toEqual([
      { mapping: 'two-way', sha: SHA, event: 'importing' },
      { mapping: 'two-way', sha: SHA, event: 'paused' },
    ]);
  });

  describe('after a failure', () => {
    const passing = new DocsyncError('FAILED', 'the service did not answer', { retryable: true });
    const permanent = new DocsyncError('CONTENT_INVALID', 'folder docs does not exist');

    it('marks the commit failed, with the code, once no attempt would help', async () => {
      const { ctx, statuses, services, outcomes } = await world();
      await importContentJob.afterFailure?.(ctx, fromGit(), permanent);
      expect(statuses()).toEqual([
        { mapping: 'two-way', sha: SHA, event: 'failed', failureCode: 'CONTENT_INVALID' },
      ]);
      // The failure's record is the runner's (the kind's countsToward): the job keeps none itself.
      expect(outcomes).toEqual([]);
      expect((await services.stores.mappings.get('two-way')).failures).toBeUndefined();
    });

    it('leaves the commit pending while the queue retries it, and marks it failed on the last attempt', async () => {
      const retrying = await world({}, { job: { attempt: 1, maxAttempts: 3 } });
      await importContentJob.afterFailure?.(retrying.ctx, fromGit(), passing);
      expect(retrying.statuses()).toEqual([]);
      const last = await world({}, { job: { attempt: 3, maxAttempts: 3 } });
      await importContentJob.afterFailure?.(last.ctx, fromGit(), passing);
      expect(last.statuses()).toEqual([
        { mapping: 'two-way', sha: SHA, event: 'failed', failureCode: 'FAILED' },
      ]);
    });

    it('asks for no status for a working copy, nor for a mapping that reports none', async () => {
      const { ctx, added } = await world();
      await importContentJob.afterFailure?.(ctx, fromWorktree, permanent);
      await importContentJob.afterFailure?.(ctx, fromGit('quiet'), permanent);
      expect(added).toEqual([]);
    });
  });

  it('tells people which commit or working copy went into which change request', () => {
    type Outcome = Parameters<NonNullable<typeof importContentJob.describe>>[0];
    const describe = (outcome: Omit<Outcome, 'mapping'>, payload: ImportContentPayload) =>
      importContentJob.describe?.({ ...outcome, mapping: 'two-way' }, payload);
    const imported = { result: 'imported', changeRequest: { id: 'cr_1', number: 7 } } as const;
    expect(describe(imported, fromGit())).toBe('imported commit aaaaaaa into change request #7');
    expect(describe(imported, fromWorktree)).toBe('imported the working copy into change request #7');
    expect(describe({ result: 'unchanged' }, fromGit())).toBeUndefined();
    expect(describe({ result: 'deferred', waitingFor: 'export' }, fromGit())).toBeUndefined();
  });

  it('counts toward its mapping and locks its space', () => {
    const { countsToward } = importContentJob;
    expect(countsToward === false ? undefined : countsToward(fromWorktree)).toEqual({ mapping: 'two-way' });
    expect(importContentJob.lockKey?.(fromGit())).toBe('spc_1');
  });
});
