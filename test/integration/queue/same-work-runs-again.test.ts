// A job handle on a real Redis deduplicates the same work only against a job of it that waits, is
// delayed or runs: after a failure (or a completion) the work is queued again under a rerun id and
// the finished job stays readable; producers racing on separate connections still make one job;
// a failed job retried by hand is the job later producers get.
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../../src/config/load-config.js';
import { DocsyncError } from '../../../src/errors/docsync-error.js';
import { jobId } from '../../../src/queue/job-id.js';
import { defineJobKind } from '../../../src/queue/job-kind.js';
import { Queues } from '../../../src/queue/queues.js';
import { retryFailedJob } from '../../../src/queue/retry-failed-job.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const prefix = uniquePrefix('same-work');
const redis = testRedis(prefix);
const config = parseConfig(
  `redis:\n  url: ${redisUrl()}\n  prefix: ${prefix}\nqueues:\n  attempts: 1\n  backoff: 100ms\n`,
  'test.yaml',
  {},
);
const queues = new Queues(redis, config, captureLog().log);
afterAll(() => queues.close());

/** A kind on the maintain queue with an id per work, as the kinds of jobs/ have. */
const tidyKind = defineJobKind({
  name: 'tidy-space',
  queue: 'maintain',
  payload: z.object({ space: z.string() }),
  id: (payload) => jobId('tidy', payload.space),
  // A test's kind: what it does is no unit /status shows.
  countsToward: false,
});

/** Spaces whose job fails (permanently, as a 401 does) when it runs. */
const refusing = new Set<string>();

/** Runs the maintain queue until `done` holds, then stops its worker, so jobs queued later wait. */
async function runUntil(done: () => Promise<boolean>): Promise<void> {
  const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const worker = new Worker(
    'maintain',
    async (job: Job<{ space: string }>) => {
      if (refusing.has(job.data.space)) throw new UnrecoverableError('401 a valid bearer token is required');
      return 'tidied';
    },
    { connection, prefix },
  );
  worker.on('error', () => undefined);
  try {
    await waitFor(async () => (await done()) || undefined, 'the jobs to finish');
  } finally {
    await worker.close();
    await connection.quit();
  }
}

const maintain = queues.get('maintain');
const stateOf = (id: string) => maintain.getJobState(id);
const pendingIds = async () =>
  (await maintain.getJobs(['waiting', 'delayed', 'active', 'prioritized'])).map((job) => job.id);

describe('the same work queued again', () => {
  it('runs again after its job failed, under a rerun id, and the failed job stays readable', async () => {
    refusing.add('spc_fail');
    const first = await tidyKind.enqueue(queues, { space: 'spc_fail' });
    expect(first.id).toBe('tidy/spc_fail');
    await runUntil(async () => (await stateOf('tidy/spc_fail')) === 'failed');

    refusing.delete('spc_fail');
    const again = await tidyKind.enqueue(queues, { space: 'spc_fail' });
    expect(again.id).toMatch(/^tidy\/spc_fail\/rerun-\d{8}T\d{6}\.\d{3}Z$/);
    // Queued again while the rerun waits: the rerun, not a third job.
    expect((await tidyKind.enqueue(queues, { space: 'spc_fail' })).id).toBe(again.id);
    expect(await pendingIds()).toEqual([again.id]);

    await runUntil(async () => (await stateOf(again.id ?? '')) === 'completed');
    const failed = await maintain.getJob('tidy/spc_fail');
    expect(failed?.failedReason).toBe('401 a valid bearer token is required');
    expect(await stateOf('tidy/spc_fail')).toBe('failed');
  });

  it('runs again after its job completed', async () => {
    await tidyKind.enqueue(queues, { space: 'spc_done' });
    await runUntil(async () => (await stateOf('tidy/spc_done')) === 'completed');
    const again = await tidyKind.enqueue(queues, { space: 'spc_done' });
    expect(again.id).toMatch(/^tidy\/spc_done\/rerun-/);
    expect(await stateOf(again.id ?? '')).toBe('waiting');
    await runUntil(async () => (await stateOf(again.id ?? '')) === 'completed');
  });

  it('is one job when producers on separate connections queue it at once after a failure', async () => {
    refusing.add('spc_race');
    await tidyKind.enqueue(queues, { space: 'spc_race' });
    await runUntil(async () => (await stateOf('tidy/spc_race')) === 'failed');
    const producers = [0, 1, 2].map(() => {
      const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
      return { connection, queues: new Queues(connection, config, captureLog().log) };
    });
    try {
      const jobs = await Promise.all(
        producers.flatMap((producer) =>
          [0, 1, 2, 3].map(() => tidyKind.enqueue(producer.queues, { space: 'spc_race' })),
        ),
      );
      const ids = new Set(jobs.map((job) => job.id));
      expect(ids.size).toBe(1);
      const pending = (await pendingIds()).filter((id) => id?.startsWith('tidy/spc_race'));
      expect(pending).toEqual([...ids]);
    } finally {
      for (const producer of producers) {
        await producer.queues.close();
        await producer.connection.quit();
      }
    }
  });

  it('queues many at once, each deduplicated by its own work', async () => {
    refusing.add('spc_bulk_a');
    await tidyKind.enqueue(queues, { space: 'spc_bulk_a' });
    await runUntil(async () => (await stateOf('tidy/spc_bulk_a')) === 'failed');
    await tidyKind.enqueue(queues, { space: 'spc_bulk_b' });
    const jobs = await tidyKind.enqueueBulk(queues, [
      { payload: { space: 'spc_bulk_a' } },
      { payload: { space: 'spc_bulk_b' } },
      { payload: { space: 'spc_bulk_c' } },
    ]);
    expect(jobs[0]?.id).toMatch(/^tidy\/spc_bulk_a\/rerun-/);
    expect(jobs.slice(1).map((job) => job.id)).toEqual(['tidy/spc_bulk_b', 'tidy/spc_bulk_c']);
    expect((await pendingIds()).filter((id) => id?.startsWith('tidy/spc_bulk')).sort()).toEqual(
      jobs.map((job) => job.id).sort(),
    );
    refusing.delete('spc_bulk_a');
    await runUntil(async () => (await pendingIds()).length === 0);
  });

  it('gives later producers a failed job retried by hand, and retries one failure per work', async () => {
    refusing.add('spc_retry');
    await tidyKind.enqueue(queues, { space: 'spc_retry' });
    await runUntil(async () => (await stateOf('tidy/spc_retry')) === 'failed');
    const rerun = await tidyKind.enqueue(queues, { space: 'spc_retry' });
    await runUntil(async () => (await stateOf(rerun.id ?? '')) === 'failed');

    // The newest failure is retried; the older one of the same work is then left as it is.
    const newest = (await maintain.getJob(rerun.id ?? '')) as Job;
    expect(await retryFailedJob(maintain, newest, { redis })).toEqual({ retried: true });
    const older = (await maintain.getJob('tidy/spc_retry')) as Job;
    expect(await retryFailedJob(maintain, older, { redis })).toEqual({
      retried: false,
      reason: 'queued',
      as: rerun.id,
    });
    expect(await stateOf('tidy/spc_retry')).toBe('failed');
    // A producer queuing the work now gets the retried job.
    expect((await tidyKind.enqueue(queues, { space: 'spc_retry' })).id).toBe(rerun.id);
    expect((await pendingIds()).filter((id) => id?.startsWith('tidy/spc_retry'))).toEqual([rerun.id]);

    refusing.delete('spc_retry');
    await runUntil(async () => (await stateOf(rerun.id ?? '')) === 'completed');
    // Finished, the retried job no longer holds the work: the next one runs.
    expect((await tidyKind.enqueue(queues, { space: 'spc_retry' })).id).toMatch(/^tidy\/spc_retry\/rerun-/);
  });

  it("refuses a producer's own deduplication for a kind that deduplicates by its job id", async () => {
    const error = await tidyKind
      .enqueue(queues, { space: 'spc_own' }, { deduplication: { id: 'mine' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DocsyncError);
    expect((error as Error).message).toBe(
      'job tidy-space is deduplicated by its job id: a producer gives it no deduplication of its own',
    );
    expect(await stateOf('tidy/spc_own')).toBe('unknown');
  });
});
