// Job handles on a real Redis: what a producer queues through a kind is the job its processor
// expects (name, queue, id, payload), a bad payload queues nothing, and the runner refuses a job
// that arrives on a queue other than its definition's.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkLinksKind } from '../../../jobs/check-links/check-links-kind.js';
import { defineJob } from '../../../jobs/define-job.js';
import { pollGitKind } from '../../../jobs/poll-git/poll-git-kind.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { createJobServices } from '../../../src/daemon/create-job-services.js';
import { runnerPorts } from '../../../src/daemon/runner-ports.js';
import { DocsyncError } from '../../../src/errors/docsync-error.js';
import { PayloadError } from '../../../src/errors/payload-error.js';
import { defineJobKind } from '../../../src/queue/job-kind.js';
import { JobRunner } from '../../../src/queue/job-runner.js';
import { Queues } from '../../../src/queue/queues.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const prefix = uniquePrefix('kinds');
const redis = testRedis(prefix);
const config = parseConfig(
  `redis:\n  url: ${redisUrl()}\n  prefix: ${prefix}\nqueues:\n  attempts: 3\n  backoff: 100ms\n`,
  'test.yaml',
  {},
);
const queues = new Queues(redis, config, captureLog().log);
afterAll(() => queues.close());

describe('a job handle', () => {
  it('queues on its own queue, under its name and id, with the payload as given', async () => {
    const job = await checkLinksKind.enqueue(queues, { space: 'spc', changeRequest: 'cr_1', revision: 'r1' });
    expect(job.id).toBe('links/spc/cr_1/r1');
    const stored = await queues.get('links').getJob('links/spc/cr_1/r1');
    expect(stored?.name).toBe('check-links');
    expect(stored?.data).toEqual({ space: 'spc', changeRequest: 'cr_1', revision: 'r1' });
    // The same work queued again is the same job.
    await checkLinksKind.enqueue(queues, { space: 'spc', changeRequest: 'cr_1', revision: 'r1' });
    expect(await queues.get('links').getJobCountByTypes('waiting')).toBe(1);
  });

  it('refuses a bad payload before anything is queued', async () => {
    const before = await queues.get('import').count();
    await expect(
      pollGitKind.enqueue(queues, { mapping: 42 } as unknown as { mapping: string }, { reason: 'push-1' }),
    ).rejects.toBeInstanceOf(PayloadError);
    expect(await queues.get('import').count()).toBe(before);
  });

  it('queues many at once, each with its id', async () => {
    const jobs = await checkLinksKind.enqueueBulk(queues, [
      { payload: { space: 'bulk', revision: 'r1' } },
      { payload: { space: 'bulk', revision: 'r2' } },
    ]);
    expect(jobs.map((job) => job.id)).toEqual(['links/bulk/main/r1', 'links/bulk/main/r2']);
  });

  it("refuses another kind's queue when handed a single queue", async () => {
    const error = await pollGitKind
      .enqueue(queues.get('links'), { mapping: 'docs' }, { reason: 'push-2' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DocsyncError);
    expect((error as DocsyncError).code).toBe('JOB_WRONG_QUEUE');
    expect(await queues.get('links').getJob('poll-git/now/docs/push-2')).toBeUndefined();
  });

  it('schedules under its name, after checking the payload', async () => {
    await checkLinksKind.schedule(
      queues,
      'links-schedule/docs',
      { every: 3_600_000 },
      {
        space: 'spc',
        revision: 'latest',
      },
    );
    const scheduler = await queues.get('links').getJobScheduler('links-schedule/docs');
    expect(scheduler?.name).toBe('check-links');
    await expect(
      checkLinksKind.schedule(queues, 'links-schedule/bad', { every: 3_600_000 }, {
        space: 'spc',
      } as unknown as { space: string; revision: string }),
    ).rejects.toBeInstanceOf(PayloadError);
    expect(await queues.get('links').getJobScheduler('links-schedule/bad')).toBeUndefined();
  });
});

describe('the job runner', () => {
  it('refuses, permanently, a job that arrives on a queue other than its definition', async () => {
    const ran: string[] = [];
    const kind = defineJobKind({
      name: 'tidy-space',
      queue: 'maintain',
      payload: z.object({ id: z.string() }),
      id: (payload) => `tidy/${payload.id}`,
      // A test's kind: what it does is no unit /status shows.
      countsToward: false,
    });
    const tidy = defineJob(kind, [], {
      async run(_ctx, payload) {
        ran.push(payload.id);
        return { result: 'tidied' };
      },
    });
    // A processor on the links queue, so that queue has a worker to receive the stray job.
    const linksKind = defineJobKind({
      name: 'links-noop',
      queue: 'links',
      payload: z.object({}),
      id: () => undefined,
      // A test's kind: what it does is no unit /status shows.
      countsToward: false,
    });
    const noop = defineJob(linksKind, [], { run: async () => ({ result: 'done' }) });
    const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
    const captured = captureLog();
    const workerQueues = new Queues(connection, config, captured.log);
    const runner = new JobRunner({
      definitions: [tidy, noop],
      connection,
      config,
      ...runnerPorts(
        createJobServices({ config, stores: memoryStores(), queues: workerQueues, log: captured.log }),
      ),
      log: captured.log,
      stopSignal: new AbortController().signal,
    });
    runner.start();
    try {
      // By hand, as a mistaken producer would: the tidy job's name on the links queue.
      const links = queues.get('links');
      await links.add('tidy-space', { id: 'stray' }, { jobId: 'tidy/stray' });
      await waitFor(
        async () => (await links.getJobState('tidy/stray')) === 'failed',
        'the stray job to fail',
      );
      const failed = await links.getJob('tidy/stray');
      expect(failed?.failedReason).toBe(
        'JOB_WRONG_QUEUE: job tidy-space belongs on queue maintain, not links',
      );
      expect(failed?.attemptsMade).toBe(1);
      expect(captured.lines.find((line) => line.code === 'JOB_WRONG_QUEUE')).toMatchObject({
        queue: 'links',
        expectedQueue: 'maintain',
        result: 'failed',
      });
      // Through its handle it lands on its own queue and runs.
      await kind.enqueue(queues, { id: 'right' });
      await waitFor(() => ran.includes('right'), 'the job on its own queue to run');
      expect(ran).toEqual(['right']);
    } finally {
      await runner.close();
      await workerQueues.close();
      await connection.quit();
    }
  });
});
