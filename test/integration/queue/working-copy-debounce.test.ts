// The working copy's saves become imports that run at once when their quiet period ends: the watcher
// times the debounce itself and queues a job that waits for nothing (no BullMQ delay, whose promotion
// can come up to 100 ms late), on a real Redis and a real folder.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { importContentKind, worktreeDebounce } from '../../../jobs/import-content/import-content-kind.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { WorkingCopyWatcher } from '../../../src/producers/working-copy-watcher.js';
import { jobId } from '../../../src/queue/job-id.js';
import { captureLog, redisUrl, tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const DEBOUNCE_MS = 300;
const prefix = uniquePrefix('watch-debounce');
const redis = testRedis(prefix);
const queue = new Queue('import', { connection: redis, prefix });
afterAll(() => queue.close());

async function watchedCopy(name: string) {
  const work = await tempDir('watch-debounce');
  await mkdir(join(work, 'docs'), { recursive: true });
  await writeFile(join(work, 'docs', 'README.md'), '# Docs\n');
  const config = parseConfig(
    `redis: { url: "${redisUrl()}", prefix: ${prefix} }
service: { baseUrl: "http://127.0.0.1:9/v1", token: test-token-0123456789 }
mappings:
  - name: ${name}
    space: space-${name}
    git: { repo: ${work}, branch: main, dir: docs, poll: 1h, watch: { path: ${work}, debounce: ${DEBOUNCE_MS}ms } }
`,
    'test.yaml',
    {},
  );
  const watcher = new WorkingCopyWatcher(queue, captureLog().log);
  afterAll(() => watcher.close());
  await watcher.start(config.mappings);
  return { work };
}

/** The working copy imports of `mapping` queued so far, oldest first. */
async function importsOf(mapping: string) {
  const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
  return jobs
    .filter((job) => job.name === 'import-content' && (job.data as { mapping?: string }).mapping === mapping)
    .sort((a, b) => a.timestamp - b.timestamp);
}

describe('the working copy watcher', () => {
  it('queues one import for a burst of saves, ready to run at once, a debounce after the last save', async () => {
    const { work } = await watchedCopy('burst');
    // The start's own import of saves made while docsync was not running.
    const [first] = await waitFor(async () => {
      const jobs = await importsOf('burst');
      return jobs.length === 1 ? jobs : undefined;
    }, 'the import at start');
    await first?.remove();

    let lastSave = 0;
    for (let i = 0; i < 5; i += 1) {
      // Before the write: its event may come before the write's promise settles.
      lastSave = Date.now();
      await writeFile(join(work, 'docs', 'README.md'), `# Docs\n\nSave ${i}.\n`);
      // Apart by more than the 50 ms within which the file watcher passes on one change of a file.
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    const [queued, ...others] = await waitFor(async () => {
      const jobs = await importsOf('burst');
      return jobs.length > 0 ? jobs : undefined;
    }, 'the import of the saves');
    expect(others).toEqual([]);
    expect(queued?.data).toEqual({ source: 'worktree', mapping: 'burst', space: 'space-burst', path: work });
    // It waits for no timer in Redis: a worker takes it as soon as a slot is free.
    expect(await queued?.getState()).toBe('waiting');
    expect(queued?.opts.delay ?? 0).toBe(0);
    // Queued only once the quiet period after the last save had passed.
    expect(queued?.timestamp).toBeGreaterThanOrEqual(lastSave + DEBOUNCE_MS);
    // Under the working copy's id, so that it replaces a deferred retry of its import still waiting.
    expect(queued?.opts.deduplication?.id).toBe(jobId('watch', 'burst'));
  });

  it('never lets an import queued earlier swallow a later save', async () => {
    const { work } = await watchedCopy('again');
    await waitFor(async () => (await importsOf('again')).length === 1, 'the import at start');
    await writeFile(join(work, 'docs', 'README.md'), '# Docs\n\nFirst save.\n');
    await waitFor(async () => (await importsOf('again')).length === 2, 'the first save queued');
    // The first save's import has not run (no worker here); had it started, it might have read the
    // folder before the second save: the second save gets a job of its own.
    await writeFile(join(work, 'docs', 'README.md'), '# Docs\n\nSecond save.\n');
    const jobs = await waitFor(async () => {
      const all = await importsOf('again');
      return all.length === 3 ? all : undefined;
    }, 'the second save queued');
    expect(await Promise.all(jobs.slice(1).map((job) => job.getState()))).toEqual(['waiting', 'waiting']);
  });

  it('replaces a deferred retry of the import still waiting with the import of a new save', async () => {
    const { work } = await watchedCopy('deferred');
    const [started] = await waitFor(async () => {
      const jobs = await importsOf('deferred');
      return jobs.length === 1 ? jobs : undefined;
    }, 'the import at start');
    await started?.remove();
    // As the import job queues it when the space holds an edit not yet exported (jobs/import-content.ts).
    const payload = { source: 'worktree', mapping: 'deferred', space: 'space-deferred', path: work } as const;
    const retry = await importContentKind.enqueue(queue, payload, {
      reason: 'deferred',
      delay: 60_000,
      deduplication: worktreeDebounce('deferred', 60_000),
    });
    expect(await retry.getState()).toBe('delayed');
    await writeFile(join(work, 'docs', 'README.md'), '# Docs\n\nSaved after the deferral.\n');
    const [queued, ...others] = await waitFor(async () => {
      const jobs = await importsOf('deferred');
      return jobs.some((job) => job.id !== retry.id) ? jobs : undefined;
    }, 'the save queued');
    expect(others).toEqual([]);
    expect(queued?.id).not.toBe(retry.id);
    expect(await queued?.getState()).toBe('waiting');
  });
});
