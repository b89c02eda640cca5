// Many pieces of work queued at once (enqueueBulk) on a real Redis follow the rules of one: a new
// work is added under its id, a pending one is its job, a finished one (completed or failed) runs
// again under a rerun id. Which ones finished is read in two ZMSCOREs (the completed and failed
// sets), however many works there are, never by BullMQ's job state script, which scans the wait
// list of the queue for each id (watched with MONITOR). A queue given connection options instead of
// a client gives the same ids.
import { type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../../src/config/load-config.js';
import { jobId } from '../../../src/queue/job-id.js';
import { defineJobKind } from '../../../src/queue/job-kind.js';
import { Queues } from '../../../src/queue/queues.js';
import { monitorRedis } from '../../support/monitor-redis.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const prefix = uniquePrefix('same-work-bulk');
const redis = testRedis(prefix);
const config = parseConfig(
  `redis:\n  url: ${redisUrl()}\n  prefix: ${prefix}\nqueues:\n  attempts: 1\n`,
  'test.yaml',
  {},
);
const queues = new Queues(redis, config, captureLog().log);
afterAll(() => queues.close());
const maintain = queues.get('maintain');

const sweepKind = defineJobKind({
  name: 'sweep-space',
  queue: 'maintain',
  payload: z.object({ space: z.string() }),
  id: (payload) => jobId('sweep', payload.space),
  // A test's kind: what it does is no unit /status shows.
  countsToward: false,
});

const RERUN = /^sweep\/spc_(done|failed)\/rerun-\d{8}T\d{6}\.\d{3}Z$/;

/** Runs the maintain queue until `ids` finished (spc_failed fails), then stops its worker. */
async function runUntilFinished(ids: readonly string[]): Promise<void> {
  const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const worker = new Worker(
    'maintain',
    async (job: Job<{ space: string }>) => {
      if (job.data.space === 'spc_failed') throw new UnrecoverableError('401 refused');
      return 'swept';
    },
    { connection, prefix },
  );
  worker.on('error', () => undefined);
  try {
    const finished = async () => {
      const states = await Promise.all(ids.map((id) => maintain.getJobState(id)));
      return states.every((state) => state === 'completed' || state === 'failed') || undefined;
    };
    await waitFor(finished, 'the jobs to finish');
  } finally {
    await worker.close();
    await connection.quit();
  }
}

/** Every command Redis ran (scripts' own commands too) while `work` ran, lower-cased names first. */
async function commandsDuring(work: () => Promise<unknown>): Promise<string[][]> {
  const monitor = await monitorRedis(redis);
  const seen: string[][] = [];
  const sentinel = `${prefix}:sentinel:${Math.random()}`;
  let done = false;
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (args[1] === sentinel) done = true;
    else if (args.slice(1).some((arg) => arg.startsWith(`${prefix}:`)))
      seen.push([String(args[0]).toLowerCase(), ...args.slice(1)]);
  });
  try {
    await work();
    await redis.get(sentinel);
    await waitFor(async () => done || undefined, 'the sentinel command');
  } finally {
    monitor.disconnect();
  }
  return seen;
}

const pendingIds = async () =>
  (await maintain.getJobs(['waiting', 'delayed', 'active', 'prioritized'])).map((job) => job.id ?? '').sort();

describe('the same work queued in bulk', () => {
  it('adds new work, keeps pending work, runs finished work again, reading their states in two commands', async () => {
    await sweepKind.enqueueBulk(queues, [
      { payload: { space: 'spc_done' } },
      { payload: { space: 'spc_failed' } },
    ]);
    await runUntilFinished(['sweep/spc_done', 'sweep/spc_failed']);
    expect(await maintain.getJobState('sweep/spc_done')).toBe('completed');
    expect(await maintain.getJobState('sweep/spc_failed')).toBe('failed');
    const pending = await sweepKind.enqueue(queues, { space: 'spc_pending' });

    // Many waiting jobs of other work: the state read must not grow with them.
    await sweepKind.enqueueBulk(
      queues,
      Array.from({ length: 40 }, (_, i) => ({ payload: { space: `spc_other_${i}` } })),
    );
    let added: Job[] = [];
    const commands = await commandsDuring(async () => {
      added = await sweepKind.enqueueBulk(queues, [
        { payload: { space: 'spc_new' } },
        { payload: { space: 'spc_pending' } },
        { payload: { space: 'spc_done' } },
        { payload: { space: 'spc_failed' } },
      ]);
    });
    const [created, kept, doneAgain, failedAgain] = added.map((job) => job.id ?? '');
    expect(created).toBe('sweep/spc_new');
    expect(kept).toBe(pending.id);
    expect(doneAgain).toMatch(RERUN);
    expect(failedAgain).toMatch(RERUN);
    expect(doneAgain).toContain('spc_done');
    expect(failedAgain).toContain('spc_failed');

    const reads = commands.filter(([name]) => name === 'zmscore');
    expect(reads.map((args) => args[1])).toEqual(
      expect.arrayContaining([maintain.toKey('completed'), maintain.toKey('failed')]),
    );
    expect(reads).toHaveLength(2);
    expect(reads[0]?.slice(2)).toEqual([
      'sweep/spc_new',
      'sweep/spc_pending',
      'sweep/spc_done',
      'sweep/spc_failed',
    ]);
    // No scan of the wait or active list for a job id, as BullMQ's getJobState does.
    expect(commands.filter(([name]) => name === 'lpos')).toEqual([]);

    // Queued again at once: the same four jobs (the reruns pending now), nothing new.
    const again = await sweepKind.enqueueBulk(queues, [
      { payload: { space: 'spc_new' } },
      { payload: { space: 'spc_pending' } },
      { payload: { space: 'spc_done' } },
      { payload: { space: 'spc_failed' } },
    ]);
    expect(again.map((job) => job.id)).toEqual([created, kept, doneAgain, failedAgain]);
    const others = Array.from({ length: 40 }, (_, i) => `sweep/spc_other_${i}`);
    expect(await pendingIds()).toEqual([created, kept, doneAgain, failedAgain, ...others].sort());
  });

  it('chooses the same ids on a queue BullMQ made its own client for', async () => {
    const { hostname, port } = new URL(redisUrl());
    const own = new Queue('maintain', { connection: { host: hostname, port: Number(port) }, prefix });
    try {
      const [finished, fresh] = await sweepKind.enqueueBulk(own, [
        { payload: { space: 'spc_failed' } },
        { payload: { space: 'spc_fresh' } },
      ]);
      // spc_failed's first job failed: a rerun; the rerun above still waits, so it is that job.
      expect(finished?.id).toMatch(RERUN);
      expect(finished?.id).toContain('spc_failed');
      expect(fresh?.id).toBe('sweep/spc_fresh');
      expect((await sweepKind.enqueue(own, { space: 'spc_fresh' })).id).toBe('sweep/spc_fresh');
    } finally {
      await own.close();
    }
  });
});
