// Readers never hold writers back, and writers of one space never overlap: docsync's runners on a
// real Redis, the real check-links processor reading a change request of the local service that
// answers slowly (its latency fault), and writer jobs under the space lock the import takes.
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkLinksJob } from '../../../jobs/check-links/check-links-job.js';
import { importContentJob } from '../../../jobs/import-content/import-content-job.js';
import { createDocsApiClient } from '../../../src/api/create-docs-api-client.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { createJobServices } from '../../../src/daemon/create-job-services.js';
import { runnerPorts } from '../../../src/daemon/runner-ports.js';
import { FIRST_BUSY_RETRY_MS } from '../../../src/queue/busy-delay.js';
import type { AnyJobDefinition } from '../../../src/queue/job-definition.js';
import { jobId } from '../../../src/queue/job-id.js';
import { JobRunner } from '../../../src/queue/job-runner.js';
import { Queues } from '../../../src/queue/queues.js';
import { SpaceLocks } from '../../../src/queue/space-locks.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { testJob } from '../../support/test-job.js';
import { waitFor } from '../../support/wait-for.js';

const prefix = uniquePrefix('rw-locks');
const redis = testRedis(prefix);
const service = await startTestEmulator();
// The default busyDelay (5 s): a writer that waited it out would show in the order of events.
const config = parseConfig(
  `redis:\n  url: ${redisUrl()}\n  prefix: ${prefix}\nqueues:\n  concurrency: 4\nservice:\n  baseUrl: ${service.baseUrl}\n  token: ${service.tokens.admin}\n`,
  'test.yaml',
  {},
);

/** What happened, in order, across both runners (one process, one event loop). */
const events: string[] = [];

/** The real link check, recording when its run starts and ends; its lock is the real one. */
const recordedCheckLinks: AnyJobDefinition = {
  ...checkLinksJob,
  async run(ctx, payload) {
    events.push('check-links start');
    try {
      return await checkLinksJob.run(ctx, payload);
    } finally {
      events.push('check-links end');
    }
  },
};

/** A writer of a space under the import's own lock key, recording its start and end. */
const writer = testJob({
  name: 'test-writer',
  queue: 'import',
  payload: z.object({ space: z.string(), id: z.string(), ms: z.number().int().min(0) }),
  lockKey: (payload) =>
    importContentJob.lockKey?.({
      mapping: 'docs',
      space: payload.space,
      source: { kind: 'commit', commit: 'HEAD' },
    } as never),
  async run(_ctx, payload) {
    events.push(`${payload.space} ${payload.id} start`);
    await sleep(payload.ms);
    events.push(`${payload.space} ${payload.id} end`);
    return { result: 'written' };
  },
});

const captured = captureLog();
const producer = new Queues(redis, config, captured.log);
afterAll(() => producer.close());

function runner() {
  const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const queues = new Queues(connection, config, captured.log);
  const instance = new JobRunner({
    definitions: [recordedCheckLinks, writer],
    connection,
    config,
    ...runnerPorts(
      createJobServices({
        config,
        redis: connection,
        queues,
        log: captured.log,
        api: createDocsApiClient({ baseUrl: service.baseUrl, token: service.tokens.admin, timeout: 30_000 }),
      }),
    ),
    log: captured.log,
    stopSignal: new AbortController().signal,
  });
  instance.start();
  afterAll(async () => {
    await instance.close();
    await queues.close();
    await connection.quit();
  });
}

// Two runners with their own connections stand for two docsync processes sharing one Redis.
runner();
runner();

describe('space locks of readers and writers', () => {
  it('starts an import queued while a link check of its space runs, without waiting for the check', async () => {
    expect(importContentJob.lockKey).toBeDefined();
    const space = await createTestSpace(service);
    const created = await callApi<{ id: string }>(
      `${service.baseUrl}/spaces/${space}/change-requests`,
      service.tokens.admin,
      'POST',
      { subject: 'Docs' },
    );
    expect(created.status).toBe(201);
    // Each answer of the service now takes 1.5 s: the check reads several, so it stays open well past
    // the time a loaded machine takes to pick the import up.
    service.emulator.faults.set({ ...service.emulator.faults.config, latencyMs: 1500 });
    try {
      await producer
        .get('links')
        .add(
          'check-links',
          { space, changeRequest: created.body.id, revision: 'latest' },
          { jobId: jobId('links', space, 'held-open') },
        );
      await waitFor(() => events.includes('check-links start'), 'the link check to start');
      await producer
        .get('import')
        .add('test-writer', { space, id: 'import', ms: 0 }, { jobId: jobId('writer', space, 'import') });
      await waitFor(() => events.includes('check-links end'), 'the link check to end', 30_000);
      await waitFor(() => events.includes(`${space} import end`), 'the import to end', 30_000);
    } finally {
      service.emulator.faults.set({ ...service.emulator.faults.config, latencyMs: 0 });
    }
    const order = events.filter((event) => event.startsWith('check-links') || event.startsWith(space));
    expect(order).toEqual([
      'check-links start',
      `${space} import start`,
      `${space} import end`,
      'check-links end',
    ]);
    // Its processor returned ('check-links end'); BullMQ records the job finished just after, its
    // return value with it (one script): read the job once it says so, not its state apart.
    const check = await waitFor(async () => {
      const job = await producer.get('links').getJob(jobId('links', space, 'held-open'));
      return job?.finishedOn === undefined ? undefined : job;
    }, 'the link check recorded finished');
    expect(check.failedReason).toBeUndefined();
    expect(check.returnvalue).toMatchObject({ result: 'clean' });
  });

  it('retries a writer that found its space busy soon, then less and less often, and runs it once free', async () => {
    const locks = new SpaceLocks(redis, { prefix, ttlMs: 10_000, log: captured.log });
    const held = await locks.tryAcquire('space-held', 'another-process');
    expect(held).toBeDefined();
    const id = jobId('writer', 'space-held', 'behind');
    await producer
      .get('import')
      .add('test-writer', { space: 'space-held', id: 'behind', ms: 0 }, { jobId: id });
    const busy = () =>
      captured.lines.filter((line) => line.msg === 'space busy, job delayed' && line.job === id);
    await waitFor(() => busy().length >= 3, 'three busy runs of the job');
    const runs = busy().slice(0, 3);
    expect(runs.map((line) => line.busyRuns)).toEqual([0, 1, 2]);
    const delays = runs.map((line) => Number(line.delayMs));
    // Each wait is drawn from a range twice as high as the one before: 25, 50, 100 ms, times 0.5-1.5.
    for (const [i, delay] of delays.entries())
      expect(delay).toBeGreaterThanOrEqual(Math.round(FIRST_BUSY_RETRY_MS * 2 ** i * 0.5));
    expect(delays[0]).toBeLessThanOrEqual(Math.round(FIRST_BUSY_RETRY_MS * 1.5));
    await held?.release();
    await waitFor(() => events.includes('space-held behind end'), 'the writer to run once the space is free');
  });

  it('never runs two writers of one space at once, across runners and slots, and loses none', async () => {
    const spaces = ['space-w1', 'space-w2'];
    const jobs = spaces.flatMap((space) =>
      Array.from({ length: 20 }, (_, i) => ({
        name: 'test-writer',
        data: { space, id: `w${i}`, ms: i % 3 },
        opts: { jobId: jobId('writer', space, i) },
      })),
    );
    await producer.get('import').addBulk(jobs);
    await waitFor(
      () =>
        spaces.every(
          (space) =>
            events.filter((event) => event.startsWith(`${space} `) && event.endsWith(' end')).length === 20,
        ),
      'every writer to end',
      30_000,
    );
    for (const space of spaces) {
      const mine = events.filter((event) => event.startsWith(`${space} `));
      // Each start is followed by its own end before any other start: no two runs overlap.
      for (let i = 0; i < mine.length; i += 2) {
        const id = mine[i]?.split(' ')[1];
        expect(mine[i]).toBe(`${space} ${id} start`);
        expect(mine[i + 1]).toBe(`${space} ${id} end`);
      }
      expect(new Set(mine.map((event) => event.split(' ')[1])).size).toBe(20);
    }
    // The lock was contended (the test would prove nothing otherwise), and the busy jobs came back.
    expect(captured.lines.filter((line) => line.msg === 'space busy, job delayed').length).toBeGreaterThan(0);
  });
});
