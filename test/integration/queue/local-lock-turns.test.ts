// A job whose space a job of the same process holds waits for it in its slot and takes the lock
// with the holder's release, instead of hearing "busy" from Redis and going to the delayed set:
// docsync's runners on a real Redis. Two runners (two connections, as two processes) share the
// queue: jobs of one space never overlap, here or across them, and none is lost.
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../../src/config/load-config.js';
import { createJobServices } from '../../../src/daemon/create-job-services.js';
import { runnerPorts } from '../../../src/daemon/runner-ports.js';
import { jobId } from '../../../src/queue/job-id.js';
import { JobRunner } from '../../../src/queue/job-runner.js';
import { Queues } from '../../../src/queue/queues.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { testJob } from '../../support/test-job.js';
import { waitFor } from '../../support/wait-for.js';

const prefix = uniquePrefix('local-turns');
const redis = testRedis(prefix);
const config = parseConfig(
  `redis:\n  url: ${redisUrl()}\n  prefix: ${prefix}\nqueues:\n  concurrency: 4\n`,
  'test.yaml',
  {},
);

/** What happened, in order, across both runners (one event loop). */
const events: string[] = [];

const writer = testJob({
  name: 'test-writer',
  queue: 'import',
  payload: z.object({ space: z.string(), id: z.string(), ms: z.number().int().min(0) }),
  lockKey: (payload) => payload.space,
  async run(_ctx, payload) {
    events.push(`${payload.space} ${payload.id} start`);
    // The gate holds its space until a job of this process waits for it here.
    if (payload.id === 'gate') await someoneWaits;
    else await sleep(payload.ms);
    events.push(`${payload.space} ${payload.id} end`);
    return { result: 'written' };
  },
});

const WAITED = 'space held by a job of this process, waiting for its end';
let waited: () => void = () => {};
const someoneWaits = new Promise<void>((resolve) => {
  waited = resolve;
});
const captured = captureLog('debug', (line) => {
  if (line.msg === WAITED) waited();
});
const producer = new Queues(redis, config, captured.log);
afterAll(() => producer.close());

function runner(): void {
  const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const queues = new Queues(connection, config, captured.log);
  const instance = new JobRunner({
    definitions: [writer],
    connection,
    config,
    ...runnerPorts(createJobServices({ config, redis: connection, queues, log: captured.log })),
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

/** The runs of `space` in order: each start followed by its own end, none overlapping. */
function expectNoOverlap(space: string, count: number): void {
  const mine = events.filter((event) => event.startsWith(`${space} `));
  for (let i = 0; i < mine.length; i += 2) {
    const id = mine[i]?.split(' ')[1];
    expect(mine[i]).toBe(`${space} ${id} start`);
    expect(mine[i + 1]).toBe(`${space} ${id} end`);
  }
  expect(new Set(mine.map((event) => event.split(' ')[1])).size).toBe(count);
}

runner();

describe('jobs of one space in one process', () => {
  it('starts a job behind another of its process as soon as that one ends, without delaying it', async () => {
    const imports = producer.get('import');
    await imports.add(
      'test-writer',
      { space: 's-short', id: 'gate', ms: 0 },
      { jobId: jobId('w', 's-short', 1) },
    );
    await waitFor(() => events.includes('s-short gate start'), 'the first job to start');
    const second = jobId('w', 's-short', 2);
    await imports.add('test-writer', { space: 's-short', id: 'second', ms: 0 }, { jobId: second });
    await waitFor(() => events.includes('s-short second end'), 'the second job to run');
    expectNoOverlap('s-short', 2);
    const lines = captured.lines.filter((line) => line.job === second);
    expect(lines.map((line) => line.msg)).toContain(WAITED);
    expect(lines.map((line) => line.msg)).not.toContain('space busy, job delayed');
  });

  it('delays, as before, a job behind a long one once its short wait here is over', async () => {
    const imports = producer.get('import');
    await imports.add(
      'test-writer',
      { space: 's-long', id: 'first', ms: 1500 },
      { jobId: jobId('w', 's-long', 1) },
    );
    await waitFor(() => events.includes('s-long first start'), 'the first job to start');
    const second = jobId('w', 's-long', 2);
    await imports.add('test-writer', { space: 's-long', id: 'second', ms: 0 }, { jobId: second });
    await waitFor(() => events.includes('s-long second end'), 'the second job to run');
    expectNoOverlap('s-long', 2);
    const messages = captured.lines.filter((line) => line.job === second).map((line) => line.msg);
    expect(messages).toContain(WAITED);
    expect(messages).toContain('space busy, job delayed');
  });
});

describe('jobs of one space in two processes', () => {
  it('never runs two jobs of one space at once, across runners and slots, and loses none', async () => {
    // The second "process" joins now.
    runner();
    const spaces = ['s-a', 's-b', 's-c'];
    await producer.get('import').addBulk(
      spaces.flatMap((space) =>
        Array.from({ length: 20 }, (_, i) => ({
          name: 'test-writer',
          data: { space, id: `j${i}`, ms: i % 3 },
          opts: { jobId: jobId('w', space, 'many', i) },
        })),
      ),
    );
    await waitFor(
      () =>
        spaces.every(
          (space) =>
            events.filter((event) => event.startsWith(`${space} `) && event.endsWith(' end')).length === 20,
        ),
      'every job to end',
      30_000,
    );
    for (const space of spaces) expectNoOverlap(space, 20);
    // Jobs waited here for their process's holder (the test would prove nothing otherwise).
    expect(
      captured.lines.filter((line) => line.msg === WAITED && String(line.job).includes('many')).length,
    ).toBeGreaterThan(0);
  });
});
