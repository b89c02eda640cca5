// When the points of the flow queue a commit's report: only for a mapping with a report block,
// never in a dry run, `failed` only once the import has no attempt left, and the commit of a
// revision found by its origin. On a real queue of the private Redis.
import { describe, expect, it } from 'vitest';
import {
  queueCommitStatusOfRevision,
  queueFailedImportStatus,
  queueImportStatus,
} from '../../../src/commit-status/queue-commit-status.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { DocsyncError } from '../../../src/errors/docsync-error.js';
import { Queues } from '../../../src/queue/queues.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { closeAfter } from '../../support/close-after.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';

const SHA = 'd'.repeat(40);
const TOKEN_ENV = 'DOCSYNC_TEST_QUEUE_STATUS_TOKEN';

async function setUp(dryRun = false) {
  const prefix = uniquePrefix('queue-commit-status');
  const redis = testRedis(prefix);
  const config = parseConfig(
    `redis: { url: "${redisUrl()}", prefix: ${prefix} }
dryRun: ${dryRun}
service: { baseUrl: "https://docs.example.com/v1", token: t }
mappings:
  - name: docs
    space: spc
    git: { repo: ./repo, branch: main }
    report: { gitlab: { url: "https://gitlab.example.com", project: 7, tokenEnv: ${TOKEN_ENV} } }
  - name: quiet
    space: spc_quiet
    git: { repo: ./repo, branch: other }
`,
    'docsync.yaml',
    { [TOKEN_ENV]: 'a-token' },
  );
  const { log, lines } = captureLog();
  const queues = new Queues(redis, config, log);
  closeAfter(() => queues.close());
  const stores = memoryStores();
  const ctx = { config, queues, stores, log, dryRun: config.dryRun };
  const queued = async () =>
    (await queues.get('notify').getJobs(['waiting', 'delayed', 'prioritized']))
      .map((job) => ({ id: job.id, data: job.data as Record<string, unknown> }))
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));
  const [docs, quiet] = config.mappings;
  if (docs === undefined || quiet === undefined) throw new Error('two mappings expected');
  return { ctx, docs, quiet, stores, queued, lines };
}

describe('queuing the status of a commit', () => {
  it('queues an import outcome for a mapping that reports, keyed by commit and event, and nothing for one that does not', async () => {
    const { ctx, docs, quiet, queued } = await setUp();
    await queueImportStatus(ctx, docs, SHA, { result: 'imported', changeRequest: { id: 'cr_4' } });
    await queueImportStatus(ctx, docs, SHA, { result: 'imported', changeRequest: { id: 'cr_4' } });
    await queueImportStatus(ctx, docs, SHA, { result: 'deferred' });
    await queueImportStatus(ctx, docs, SHA, { result: 'dry-run' });
    await queueImportStatus(ctx, quiet, SHA, { result: 'imported', changeRequest: { id: 'cr_4' } });
    expect(await queued()).toEqual([
      { id: `commit-status/docs/${SHA}/deferred`, data: { mapping: 'docs', sha: SHA, event: 'deferred' } },
      {
        id: `commit-status/docs/${SHA}/imported`,
        data: { mapping: 'docs', sha: SHA, event: 'imported', changeRequest: 'cr_4' },
      },
    ]);
  });

  it('queues a failure only once the import has no attempt left, or none would help', async () => {
    const { ctx, queued } = await setUp();
    const passing = Object.assign(new Error('connection reset'), { code: 'ECONNRESET' });
    await queueFailedImportStatus({ ...ctx, job: { attempt: 2, maxAttempts: 5 } }, 'docs', SHA, passing);
    expect(await queued()).toEqual([]);
    await queueFailedImportStatus({ ...ctx, job: { attempt: 5, maxAttempts: 5 } }, 'docs', SHA, passing);
    expect((await queued()).map((job) => job.data)).toEqual([
      { mapping: 'docs', sha: SHA, event: 'failed', failureCode: 'FAILED' },
    ]);
    const permanent = new DocsyncError('CONTENT_INVALID', 'SUMMARY.md names a page twice');
    await queueFailedImportStatus(
      { ...ctx, job: { attempt: 1, maxAttempts: 5 } },
      'docs',
      'e'.repeat(40),
      permanent,
    );
    expect((await queued()).map((job) => job.data.failureCode)).toEqual(['FAILED', 'CONTENT_INVALID']);
  });

  it("finds a revision's commit by its origin, and leaves revisions docsync did not make from a commit", async () => {
    const { ctx, stores, queued } = await setUp();
    await stores.mappings.recordRevisionOrigin('spc', 'rev_1', {
      kind: 'import',
      mapping: 'docs',
      sha: SHA,
      changeRequest: 'cr_4',
    });
    await queueCommitStatusOfRevision(ctx, 'spc', 'rev_1', { event: 'links-checked' });
    await queueCommitStatusOfRevision(ctx, 'spc', 'rev_unknown', { event: 'links-checked' });
    await queueCommitStatusOfRevision(ctx, 'other-space', 'rev_1', { event: 'merged' });
    expect(await queued()).toEqual([
      {
        id: `commit-status/docs/${SHA}/links-checked`,
        data: { mapping: 'docs', sha: SHA, event: 'links-checked', changeRequest: 'cr_4' },
      },
    ]);
  });

  it('queues nothing in a dry run', async () => {
    const { ctx, docs, stores, queued } = await setUp(true);
    await stores.mappings.recordRevisionOrigin('spc', 'rev_1', { kind: 'import', mapping: 'docs', sha: SHA });
    await queueImportStatus(ctx, docs, SHA, { result: 'imported', changeRequest: { id: 'cr_4' } });
    await queueCommitStatusOfRevision(ctx, 'spc', 'rev_1', { event: 'merged' });
    await queueFailedImportStatus(
      { ...ctx, job: { attempt: 5, maxAttempts: 5 } },
      'docs',
      SHA,
      new Error('x'),
    );
    expect(await queued()).toEqual([]);
  });
});
