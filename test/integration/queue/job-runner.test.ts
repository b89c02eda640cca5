import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../../src/config/load-config.js';
import { createJobServices } from '../../../src/daemon/create-job-services.js';
import { runnerPorts } from '../../../src/daemon/runner-ports.js';
import { DocsyncError } from '../../../src/errors/docsync-error.js';
import { jobId } from '../../../src/queue/job-id.js';
import { JobRunner } from '../../../src/queue/job-runner.js';
import { Queues } from '../../../src/queue/queues.js';
import { parsePrometheusText, sumOf } from '../../support/prometheus-text.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { testJob } from '../../support/test-job.js';
import { waitFor } from '../../support/wait-for.js';

const prefix = uniquePrefix('runner');
const redis = testRedis(prefix);
const config = parseConfig(
  `redis:\n  url: ${redisUrl()}\n  prefix: ${prefix}\nqueues:\n  concurrency: 4\n  attempts: 3\n  backoff: 100ms\nlocks:\n  ttl: 1s\n  busyDelay: 100ms\n`,
  'test.yaml',
  {},
);

const running = new Map<string, number>();
const maxRunning = new Map<string, number>();
const finished: string[] = [];
const attemptsSeen = new Map<string, number>();

const touchSpace = testJob({
  name: 'touch-space',
  queue: 'maintain',
  payload: z.object({ space: z.string(), id: z.string(), ms: z.number().int().min(0) }),
  lockKey: (payload) => payload.space,
  async run(_ctx, payload) {
    const now = (running.get(payload.space) ?? 0) + 1;
    running.set(payload.space, now);
    maxRunning.set(payload.space, Math.max(maxRunning.get(payload.space) ?? 0, now));
    await sleep(payload.ms);
    running.set(payload.space, (running.get(payload.space) ?? 1) - 1);
    finished.push(payload.id);
    return { result: 'touched' };
  },
});

const flaky = testJob({
  name: 'flaky',
  queue: 'maintain',
  payload: z.object({ id: z.string(), kind: z.enum(['transient', 'permanent']) }),
  async run(ctx, payload) {
    attemptsSeen.set(payload.id, ctx.job.attempt);
    if (payload.kind === 'permanent') throw new DocsyncError('MAPPING_UNKNOWN', 'the space does not exist');
    throw Object.assign(new Error('connection reset'), { code: 'ECONNRESET' });
  },
});

// Does not stop when its signal aborts, on purpose: the runner itself must not report success once
// the lock is lost.
const stubborn = testJob({
  name: 'stubborn',
  queue: 'maintain',
  payload: z.object({ space: z.string() }),
  lockKey: (payload) => payload.space,
  async run(ctx, payload) {
    if (ctx.job.attempt === 1) {
      const key = `${prefix}:lock:space:${payload.space}`;
      await redis.set(key, 'another-process', 'PX', 600);
      // Waits until the runner has seen the lock taken, and the other process's lock has expired
      // (the retry then finds the space free), then reports success all the same.
      await waitFor(() => ctx.signal.aborted, 'the lock to be lost');
      await waitFor(async () => (await redis.exists(key)) === 0, 'the other lock to expire');
    }
    return { result: 'done' };
  },
});

// Answers like a service that says 429 once: the queue pauses and the job runs again unharmed.
let throttledCalls = 0;
const throttledAt: number[] = [];
const throttled = testJob({
  name: 'throttled',
  queue: 'maintain',
  payload: z.object({}),
  async run() {
    throttledCalls += 1;
    throttledAt.push(Date.now());
    if (throttledCalls === 1) {
      throw Object.assign(new DocsyncError('API_HTTP_ERROR', 'too many requests', { retryable: true }), {
        status: 429,
        retryAfterMs: 400,
      });
    }
    return { result: 'done' };
  },
});

function runner(label: string) {
  const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const captured = captureLog();
  const queues = new Queues(connection, config, captured.log);
  const services = createJobServices({ config, redis: connection, queues, log: captured.log });
  const instance = new JobRunner({
    definitions: [touchSpace, flaky, stubborn, throttled],
    connection,
    config,
    ...runnerPorts(services),
    log: captured.log.child({ runner: label }),
    stopSignal: new AbortController().signal,
  });
  instance.start();
  afterAll(async () => {
    await instance.close();
    await queues.close();
    await connection.quit();
  });
  return { instance, lines: captured.lines, metrics: services.metrics };
}

// Jobs go in through docsync's own queues, so they carry the configured attempts and backoff.
const producerQueues = new Queues(redis, config, captureLog().log);
const queue = producerQueues.get('maintain');
afterAll(() => producerQueues.close());

/** The job once BullMQ has recorded it as failed. */
function failedJob(id: string) {
  return waitFor(
    async () => ((await queue.getJobState(id)) === 'failed' ? queue.getJob(id) : undefined),
    `job ${id} to fail`,
  );
}

// Two runners with their own connections stand for two docsync processes sharing one Redis.
const one = runner('one');
const two = runner('two');

describe('JobRunner', () => {
  it('never runs two jobs of one space at once across processes, and loses none', async () => {
    const jobs = [
      ...Array.from({ length: 12 }, (_, i) => ({ space: 'space-a', id: `a${i}`, ms: 40 })),
      ...Array.from({ length: 6 }, (_, i) => ({ space: 'space-b', id: `b${i}`, ms: 40 })),
    ];
    await queue.addBulk(
      jobs.map((data) => ({ name: 'touch-space', data, opts: { jobId: jobId('touch', data.id) } })),
    );
    await waitFor(() => finished.length === jobs.length, 'every job to finish', 20_000);
    expect(maxRunning.get('space-a')).toBe(1);
    expect(maxRunning.get('space-b')).toBe(1);
    expect([...finished].sort()).toEqual(jobs.map((job) => job.id).sort());
    const counts = await waitFor(async () => {
      const now = await queue.getJobCounts('completed', 'failed', 'delayed', 'waiting', 'active');
      return now.completed === jobs.length ? now : undefined;
    }, 'BullMQ to record every completion');
    expect(counts).toMatchObject({ completed: 18, failed: 0, delayed: 0, waiting: 0, active: 0 });
    // Both processes took part, and the busy ones waited rather than failed.
    const completedBy = (lines: Array<Record<string, unknown>>) =>
      lines.filter((line) => line.msg === 'job completed').length;
    expect(completedBy(one.lines) + completedBy(two.lines)).toBe(18);
    expect([...one.lines, ...two.lines].some((line) => line.msg === 'space busy, job delayed')).toBe(true);
  });

  it('logs one line per outcome with the job ids', async () => {
    const line = [...one.lines, ...two.lines].find(
      (entry) => entry.msg === 'job completed' && entry.job === jobId('touch', 'a0'),
    );
    expect(line).toMatchObject({
      queue: 'maintain',
      name: 'touch-space',
      lockKey: 'space-a',
      result: 'touched',
      attempt: 1,
    });
    expect(typeof line?.durationMs).toBe('number');
  });

  it('fails an invalid payload at once, without retrying', async () => {
    const job = await queue.add(
      'touch-space',
      { space: 'space-c', id: 'bad', ms: -1 },
      { jobId: jobId('touch', 'bad') },
    );
    const failed = await failedJob(job.id ?? '');
    expect(failed?.attemptsMade).toBe(1);
    expect(failed?.failedReason).toMatch(/^JOB_PAYLOAD_INVALID: invalid payload for job touch-space: ms: /);
  });

  it('fails a permanent error at once and retries a passing one up to the attempts', async () => {
    await queue.add('flaky', { id: 'p', kind: 'permanent' }, { jobId: jobId('flaky', 'p') });
    await queue.add('flaky', { id: 't', kind: 'transient' }, { jobId: jobId('flaky', 't') });
    const permanent = await failedJob(jobId('flaky', 'p'));
    const transient = await failedJob(jobId('flaky', 't'));
    expect(permanent?.attemptsMade).toBe(1);
    expect(permanent?.failedReason).toBe('MAPPING_UNKNOWN: the space does not exist');
    expect(transient?.attemptsMade).toBe(3);
    expect(attemptsSeen.get('t')).toBe(3);
    // The two runners may share the attempts: order the lines by attempt, not by runner.
    const outcome = [...one.lines, ...two.lines]
      .filter((line) => line.job === jobId('flaky', 't'))
      .sort((a, b) => Number(a.attempt) - Number(b.attempt))
      .map((line) => [line.attempt, line.result]);
    expect(outcome).toEqual([
      [1, 'retrying'],
      [2, 'retrying'],
      [3, 'failed'],
    ]);
  });

  it('does not report success for a job whose space lock was taken from it, and runs it again', async () => {
    await queue.add('stubborn', { space: 'space-stolen' }, { jobId: jobId('stubborn', '1') });
    await waitFor(
      async () => (await queue.getJobState(jobId('stubborn', '1'))) === 'completed',
      'the job to complete',
    );
    const lines = [...one.lines, ...two.lines]
      .filter((line) => line.job === jobId('stubborn', '1'))
      .sort((a, b) => Number(a.attempt) - Number(b.attempt));
    expect(lines.map((line) => [line.msg, line.attempt, line.code])).toEqual([
      ['job failed, will retry', 1, 'LOCK_LOST'],
      ['job completed', 2, undefined],
    ]);
  });

  it('pauses the whole queue on a service rate limit, and runs the job again without using an attempt', async () => {
    const job = await queue.add('throttled', {}, { jobId: jobId('throttled', '1') });
    await waitFor(
      async () => ((await queue.getJobState(job.id ?? '')) === 'completed' ? true : undefined),
      'the job to complete',
    );
    expect(throttledCalls).toBe(2);
    // Not before the pause ended: BullMQ honours a queue's pause only for workers with a limiter.
    expect((throttledAt[1] ?? 0) - (throttledAt[0] ?? 0)).toBeGreaterThanOrEqual(400);
    expect((await queue.getJob(job.id ?? ''))?.attemptsMade).toBe(1);
    const paused = [...one.lines, ...two.lines].find(
      (line) => line.msg === 'service rate limit: queue paused',
    );
    expect(paused).toMatchObject({ pauseMs: 400, result: 'rate-limited' });
  });

  it('fails a job whose name no processor has', async () => {
    await queue.add('no-such-job', {}, { jobId: jobId('unknown', '1') });
    const job = await failedJob(jobId('unknown', '1'));
    expect(job?.failedReason).toMatch(/^JOB_UNKNOWN: /);
    expect(job?.attemptsMade).toBe(1);
  });

  // Runs after the tests above: every outcome they caused, summed over the two runners.
  it('records each outcome and its duration in the metrics of the runner that ran it', async () => {
    const [a, b] = await Promise.all([one.metrics.text(), two.metrics.text()]);
    const expositions = [parsePrometheusText(a), parsePrometheusText(b)];
    const count = (name: string, labels: Record<string, string>) =>
      expositions.reduce((sum, exposition) => sum + sumOf(exposition, name, labels), 0);
    const jobs = (name: string, result: string) =>
      count('docsync_jobs_total', { queue: 'maintain', name, result });
    expect(jobs('touch-space', 'completed')).toBe(18);
    expect(jobs('touch-space', 'delayed')).toBeGreaterThanOrEqual(1);
    expect(jobs('touch-space', 'failed')).toBe(1);
    expect(jobs('flaky', 'failed')).toBe(2);
    expect(jobs('flaky', 'retrying')).toBe(2);
    expect(jobs('stubborn', 'retrying')).toBe(1);
    expect(jobs('stubborn', 'completed')).toBe(1);
    expect(jobs('throttled', 'rate-limited')).toBe(1);
    expect(jobs('throttled', 'completed')).toBe(1);
    // A name no processor has stays out of the labels.
    expect(jobs('unknown', 'failed')).toBe(1);
    expect(count('docsync_jobs_total', { name: 'no-such-job' })).toBe(0);
    expect(count('docsync_job_duration_seconds_count', { name: 'touch-space', result: 'completed' })).toBe(
      18,
    );
    // The 40 ms jobs: none under 10 ms, all within a second.
    expect(
      count('docsync_job_duration_seconds_bucket', { name: 'touch-space', result: 'completed', le: '0.01' }),
    ).toBe(0);
    expect(
      count('docsync_job_duration_seconds_bucket', { name: 'touch-space', result: 'completed', le: '1' }),
    ).toBe(18);
    expect(count('docsync_rate_limit_waits_total', { waiter: 'queue' })).toBe(1);
    expect(count('docsync_rate_limit_wait_seconds_total', { waiter: 'queue' })).toBe(0.4);
  });
});
