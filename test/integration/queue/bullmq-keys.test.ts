// The BullMQ keys docsync reads and writes itself (src/queue/bullmq-internals/), checked against
// what the installed BullMQ writes: real queues and workers on the private Redis put jobs in each
// state those reads meet (waiting, delayed, paused, active with its lock, completed, failed, rate
// limited by Queue.rateLimit and by a worker's limiter), and each key docsync reads must be there,
// of the type and holding what docsync expects. An upgrade of BullMQ that moves one fails here,
// naming the key and the file that reads it, not in a job months later.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Job, Queue, Worker } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/package-info.js';
import { holdDeduplicationKey } from '../../../src/queue/bullmq-internals/deduplication-key.js';
import { finishedJobs } from '../../../src/queue/bullmq-internals/finished-jobs.js';
import { extendQueueRateLimit } from '../../../src/queue/bullmq-internals/queue-rate-limit.js';
import { jobKeyPrefix } from '../../../src/queue/bullmq-internals/space-lock-swap.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const bullmqPackage: unknown = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('bullmq/package.json'), 'utf8'),
);
const VERSION = (bullmqPackage as { version: string }).version;

/** The range package.json pins BullMQ to. */
const PINNED: unknown = (
  JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, unknown>;
  }
).dependencies.bullmq;

const LUA = 'src/queue/bullmq-internals/lua';
const READERS = {
  jobLock: `${LUA}/spaceLockSwap-n.lua`,
  limiter: `${LUA}/pauseQueueAtLeast-1.lua`,
  finished: 'src/queue/bullmq-internals/finished-jobs.ts',
  deduplication: 'src/queue/bullmq-internals/deduplication-key.ts',
} as const;

// Job ids here are named `job-<state>`, never a state: a job's hash is `<queue>:<id>`, beside the
// queue's own `<queue>:active`. A hash tag, as a Redis Cluster needs: every key of one script call in one slot.
const prefix = `{${uniquePrefix('bullmq-keys')}}`;
const redis = testRedis(prefix);
const closing: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

function queueOf(name: string): Queue {
  const queue = new Queue(name, { connection: redis, prefix });
  closing.push(() => queue.close());
  return queue;
}

/** Every key BullMQ wrote under the prefix, with its type: shown when a key is not as expected. */
async function listing(): Promise<string> {
  const keys = (await redis.keys(`${prefix}:*`)).sort();
  const types = await Promise.all(keys.map((key) => redis.type(key)));
  return keys.map((key, index) => `${key.slice(prefix.length + 1)} (${types[index]})`).join(', ');
}

/** Asserts `check` of `key`, else fails with the BullMQ version, the key, its reader and the keys found. */
async function expectKey(
  key: string,
  reader: keyof typeof READERS,
  what: string,
  check: (type: string, value: string | null, ttlMs: number) => boolean,
): Promise<void> {
  const type = await redis.type(key);
  const value = type === 'string' ? await redis.get(key) : null;
  const ttlMs = await redis.pttl(key);
  const found = `found a ${type}${value === null ? '' : ` holding ${value}`}, ttl ${ttlMs} ms`;
  if (!check(type, value, ttlMs))
    expect.fail(
      `BullMQ ${VERSION} changed key ${key} that ${READERS[reader]} reads: expected ${what}, ${found}. Keys BullMQ wrote under the prefix: ${await listing()}`,
    );
}

const isString = (expected: string) => (type: string, value: string | null) =>
  type === 'string' && value === expected;
const isNone = (type: string) => type === 'none';

describe(`the BullMQ keys docsync reads, in BullMQ ${VERSION}`, () => {
  it('is the BullMQ version package.json pins, to a minor version', () => {
    expect(PINNED, 'package.json pins bullmq to one minor version (~major.minor.patch)').toMatch(
      /^~\d+\.\d+\.\d+$/,
    );
    const [major, minor, patch] = String(PINNED).slice(1).split('.').map(Number);
    const [installedMajor, installedMinor, installedPatch] = VERSION.split('.').map(Number);
    expect(
      installedMajor === major && installedMinor === minor && (installedPatch ?? 0) >= (patch ?? 0),
      `bullmq ${VERSION} is installed, outside the pinned ${String(PINNED)}: run npm install, or run this test on the new version and pin it`,
    ).toBe(true);
  });

  it('keeps a pending job as its deduplication id holder, and drops it once the job finished', async () => {
    const queue = queueOf('dedup');
    const deduplicationKey = (id: string) => queue.toKey(`de:${id}`);
    await queue.add('work', {}, { jobId: 'job-waiting', deduplication: { id: 'work-waiting' } });
    await queue.add(
      'work',
      {},
      { jobId: 'job-delayed', delay: 60_000, deduplication: { id: 'work-delayed' } },
    );
    await expectKey(
      deduplicationKey('work-waiting'),
      'deduplication',
      'a string holding the waiting job id',
      isString('job-waiting'),
    );
    await expectKey(
      deduplicationKey('work-delayed'),
      'deduplication',
      'a string holding the delayed job id',
      isString('job-delayed'),
    );
    expect(await queue.getJobState('job-delayed')).toBe('delayed');

    await queue.pause();
    await queue.add('work', {}, { jobId: 'job-paused', deduplication: { id: 'work-paused' } });
    await expectKey(
      deduplicationKey('work-paused'),
      'deduplication',
      "a string holding the paused queue's job id",
      isString('job-paused'),
    );
    await queue.resume();

    // What docsync sets for a retried job is what BullMQ reads back, and NX keeps a holder.
    await holdDeduplicationKey(redis, queue, 'work-retried', 'retried');
    await holdDeduplicationKey(redis, queue, 'work-retried', 'other');
    expect(await queue.getDeduplicationJobId('work-retried')).toBe('retried');

    const worker = new Worker('dedup', async () => 'done', { connection: redis, prefix });
    closing.push(() => worker.close());
    await waitFor(
      async () => (await queue.getJobState('job-waiting')) === 'completed',
      'the waiting job completed',
    );
    await expectKey(
      deduplicationKey('work-waiting'),
      'deduplication',
      'no key once its job completed',
      isNone,
    );
  });

  it('holds the lock of an active job as the token its worker runs it with, and drops it at its end', async () => {
    const queue = queueOf('locked');
    const tokens = new Map<string, string>();
    let finish = (): void => undefined;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const worker = new Worker(
      'locked',
      async (job: Job, token?: string) => {
        if (job.id !== undefined && token !== undefined) tokens.set(job.id, token);
        await finished;
      },
      { connection: redis, prefix, lockDuration: 30_000 },
    );
    closing.push(() => worker.close());
    await queue.add('work', {}, { jobId: 'job-active' });
    const token = await waitFor(() => tokens.get('job-active'), 'the job active');

    // The key lua/spaceLockSwap-n.lua builds: the job key prefix, the queue, the job id, ':lock'.
    const lock = `${jobKeyPrefix(prefix)}locked:job-active:lock`;
    await expectKey(
      lock,
      'jobLock',
      "a string holding the token the worker's processor was given",
      isString(token),
    );
    finish();
    await waitFor(async () => (await queue.getJobState('job-active')) === 'completed', 'the job completed');
    await expectKey(lock, 'jobLock', 'no lock once the job ended', isNone);
  });

  it('lists finished jobs in the sorted sets docsync reads', async () => {
    const queue = queueOf('finished');
    const worker = new Worker(
      'finished',
      async (job: Job) => {
        if (job.name === 'fail') throw new Error('planned failure');
        return 'done';
      },
      { connection: redis, prefix },
    );
    worker.on('failed', () => undefined);
    closing.push(() => worker.close());
    await queue.add('pass', {}, { jobId: 'job-completed' });
    await queue.add('fail', {}, { jobId: 'job-failed', attempts: 1 });
    await queue.add('later', {}, { jobId: 'job-delayed', delay: 60_000 });
    await waitFor(async () => (await queue.getJobState('job-failed')) === 'failed', 'the job failed');
    await waitFor(
      async () => (await queue.getJobState('job-completed')) === 'completed',
      'the job completed',
    );
    for (const state of ['completed', 'failed'] as const) {
      const key = queue.toKey(state);
      const score = await redis.zscore(key, `job-${state}`);
      await expectKey(
        key,
        'finished',
        `a sorted set with the ${state} job id as a member`,
        (type) => type === 'zset' && score !== null,
      );
    }
    expect(await finishedJobs(queue, ['job-completed', 'job-failed', 'job-delayed', 'unknown'])).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it("writes a queue's rate limit as Queue.rateLimit does, and replaces a worker limiter's count", async () => {
    const queue = queueOf('limited');
    expect(queue.keys.limiter, 'the limiter key docsync falls back to').toBe(
      `${queue.qualifiedName}:limiter`,
    );
    const limiter = queue.keys.limiter ?? '';

    // BullMQ's own pause of the queue: what docsync's script writes and reads as a pause.
    await queue.rateLimit(60_000);
    await expectKey(
      limiter,
      'limiter',
      `a string holding ${Number.MAX_SAFE_INTEGER} with a ttl`,
      (type, value, ttl) =>
        type === 'string' && value === String(Number.MAX_SAFE_INTEGER) && ttl > 0 && ttl <= 60_000,
    );
    // Kept when longer, as BullMQ's workers then read it.
    expect(await extendQueueRateLimit(redis, queue, 1000)).toBeGreaterThan(1000);
    expect(await queue.getRateLimitTtl(Number.MAX_SAFE_INTEGER)).toBeGreaterThan(1000);
    await redis.del(limiter);

    // A worker's limiter counts the jobs it started in the key, below what a pause stores.
    const worker = new Worker('limited', async () => 'done', {
      connection: redis,
      prefix,
      limiter: { max: 1000, duration: 60_000 },
    });
    closing.push(() => worker.close());
    await queue.add('work', {}, { jobId: 'job-counted' });
    await waitFor(async () => (await queue.getJobState('job-counted')) === 'completed', 'the job completed');
    await expectKey(
      limiter,
      'limiter',
      "a string holding the limiter's count of jobs, with a ttl",
      (type, value, ttl) =>
        type === 'string' && Number(value) >= 1 && Number(value) < Number.MAX_SAFE_INTEGER && ttl > 0,
    );
    expect(await extendQueueRateLimit(redis, queue, 5000)).toBe(5000);
    expect(await queue.getRateLimitTtl(Number.MAX_SAFE_INTEGER)).toBeGreaterThan(0);
  });

  it('keeps every key of a queue under its prefix, so that a hash tag there covers them all', async () => {
    const ours = await redis.keys(`*${prefix}*`);
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.filter((key) => !key.startsWith(`${prefix}:`))).toEqual([]);
  });
});
