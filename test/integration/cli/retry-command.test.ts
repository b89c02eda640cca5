// `docsync retry` as users run it, against a private Redis holding failed jobs: by mapping (its
// name or its space in the payload), by job id, or all; once per piece of work; exit 1 when nothing
// matched, 2 on bad usage.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLinksKind } from '../../../jobs/check-links/check-links-kind.js';
import { exportSpaceKind } from '../../../jobs/export-space/export-space-kind.js';
import { updateChangeRequestKind } from '../../../jobs/update-change-request/update-change-request-kind.js';
import { parseConfig } from '../../../src/config/load-config.js';
import type { QueueName } from '../../../src/queue/queue-names.js';
import { Queues } from '../../../src/queue/queues.js';
import { RedisVersionStateStore } from '../../../src/versions/redis-version-state-store.js';
import { cliEnv, runCli } from '../../support/cli-process.js';
import { captureLog, redisUrl, tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const prefix = uniquePrefix('retry-cli');
const redis = testRedis(prefix);
const yaml = `redis: { url: "${redisUrl()}", prefix: ${prefix} }
service: { baseUrl: "http://127.0.0.1:9/v1", token: unused-token }
queues: { attempts: 1 }
mappings:
  - { name: docs, space: spc_docs, git: { repo: /nowhere, branch: main, dir: docs } }
  - { name: other, space: spc_other, git: { repo: /elsewhere, branch: main, dir: docs } }
  - name: handbook
    git: { repo: /handbook, branches: ["release/*"], dir: docs }
    spaces: { title: "Handbook {version}", org: org_1 }
`;
const queues = new Queues(redis, parseConfig(yaml, 'test.yaml', {}), captureLog().log);
afterAll(() => queues.close());

async function configFile(): Promise<string> {
  const file = join(await tempDir('retry-cli'), 'docsync.yaml');
  await writeFile(file, yaml);
  return file;
}

/** Runs the queue with a worker whose every job fails as a 401 does, until none waits. */
async function failAll(name: QueueName): Promise<void> {
  const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const worker = new Worker(
    name,
    async () => {
      throw new UnrecoverableError('401 a valid bearer token is required');
    },
    { connection, prefix },
  );
  worker.on('error', () => undefined);
  try {
    const queue = queues.get(name);
    await waitFor(
      async () => (await queue.getWaitingCount()) + (await queue.getActiveCount()) === 0 || undefined,
      `the ${name} queue to fail its jobs`,
    );
  } finally {
    await worker.close();
    await connection.quit();
  }
}

const retry = async (...args: string[]) => runCli(['retry', ...args], { env: cliEnv() });
const stateOf = (queue: QueueName, id: string) => queues.get(queue).getJobState(id);

describe('docsync retry', () => {
  it("runs a mapping's failed jobs again, by its name or its space, and leaves the others", async () => {
    const file = await configFile();
    const docs = { mapping: 'docs', space: 'spc_docs', changeRequest: 'cr_1', revision: 'rev_1' };
    await updateChangeRequestKind.enqueue(queues, docs);
    await updateChangeRequestKind.enqueue(queues, { ...docs, mapping: 'other', space: 'spc_other' });
    await checkLinksKind.enqueue(queues, { space: 'spc_docs', revision: 'rev_1' });
    await failAll('maintain');
    await failAll('links');

    const run = await retry('--mapping', 'docs', '-c', file);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').filter(Boolean).sort()).toEqual([
      '2 failed jobs retried',
      'retried links:links/spc_docs/main/rev_1 (check-links), failed with: 401 a valid bearer token is required',
      'retried maintain:update/spc_docs/cr_1/rev_1 (update-change-request), failed with: 401 a valid bearer token is required',
    ]);
    expect(await stateOf('maintain', 'update/spc_docs/cr_1/rev_1')).toBe('waiting');
    expect(await stateOf('links', 'links/spc_docs/main/rev_1')).toBe('waiting');
    expect(await stateOf('maintain', 'update/spc_other/cr_1/rev_1')).toBe('failed');

    // Nothing of the mapping is failed any more.
    const again = await retry('--mapping', 'docs', '-c', file);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe('docsync retry: no failed jobs of mapping docs (space spc_docs)\n');
  });

  it('runs one job again, named with or without its queue, and says when it is not failed', async () => {
    const file = await configFile();
    await exportSpaceKind.enqueue(queues, { mapping: 'other', space: 'spc_other', revision: 'rev_9' });
    await failAll('export');

    const run = await retry('--job', 'export/spc_other/rev_9', '--config', file);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'retried export:export/spc_other/rev_9 (export-space), failed with: 401 a valid bearer token is required\n1 failed job retried\n',
    );
    expect(await stateOf('export', 'export/spc_other/rev_9')).toBe('waiting');

    const waiting = await retry('--job', 'export:export/spc_other/rev_9', '--config', file);
    expect(waiting.code).toBe(1);
    expect(waiting.stderr).toBe('docsync retry: job export:export/spc_other/rev_9 is waiting, not failed\n');

    const missing = await retry('--job', 'maintain:export/spc_other/rev_9', '--config', file);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'docsync retry: no job maintain:export/spc_other/rev_9 in any queue (give <queue>:<id> or an id)\n',
    );
  });

  it('retries every failed job once per piece of work, the newest failure of each', async () => {
    const file = await configFile();
    await queues.get('maintain').drain(true);
    const work = { mapping: 'docs', space: 'spc_docs', changeRequest: 'cr_2', revision: 'rev_2' };
    await updateChangeRequestKind.enqueue(queues, work);
    await failAll('maintain');
    const rerun = (await updateChangeRequestKind.enqueue(queues, work)) as Job;
    await failAll('maintain');

    const run = await retry('--all-failed', '-c', file);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n').filter(Boolean);
    expect(lines).toContain(
      `retried maintain:${rerun.id} (update-change-request), failed with: 401 a valid bearer token is required`,
    );
    expect(lines).toContain(
      `skipped maintain:update/spc_docs/cr_2/rev_2 (update-change-request): the same work is queued as maintain:${rerun.id}`,
    );
    expect(lines.at(-1)).toMatch(/^\d+ failed jobs? retried, 1 skipped$/);
    expect(await stateOf('maintain', rerun.id ?? '')).toBe('waiting');
    expect(await stateOf('maintain', 'update/spc_docs/cr_2/rev_2')).toBe('failed');
  });

  it('runs the failed jobs of one branch of a branches mapping, named <mapping>@<branch>', async () => {
    const file = await configFile();
    await new RedisVersionStateStore(redis, prefix).set('handbook', {
      branches: { 'release/v2': { space: 'spc_v2', created: true } },
    });
    const work = {
      mapping: 'handbook@release/v2',
      space: 'spc_v2',
      changeRequest: 'cr_3',
      revision: 'rev_3',
    };
    await updateChangeRequestKind.enqueue(queues, work);
    await failAll('maintain');

    const run = await retry('--mapping', 'handbook@release/v2', '-c', file);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(
      'retried maintain:update/spc_v2/cr_3/rev_3 (update-change-request), failed with: 401 a valid bearer token is required\n1 failed job retried\n',
    );
    expect(await stateOf('maintain', 'update/spc_v2/cr_3/rev_3')).toBe('waiting');

    const unknown = await retry('--mapping', 'handbook@release/v9', '-c', file);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^docsync retry: handbook@release\/v9: docsync has no space for this branch of handbook .*; known: handbook@release\/v2\n$/,
    );
  });

  it('refuses bad usage with exit 2', async () => {
    const file = await configFile();
    for (const args of [
      ['-c', file],
      ['--all-failed', '--mapping', 'docs', '-c', file],
      ['--mapping', 'nope', '-c', file],
      ['--all-failed'],
    ]) {
      const run = await retry(...args);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr).toMatch(/^docsync retry: /);
    }
  });
});
