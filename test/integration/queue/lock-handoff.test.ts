// A writer that found its space busy starts when the writer holding it ends, not at its next retry:
// docsync's runner on a real Redis, two writers of one space, the first held open by the test.
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

const prefix = uniquePrefix('lock-handoff');
// Removes the prefix's keys after the file.
testRedis(prefix);
// The default busyDelay (5 s): the waiter's retries grow towards it.
const config = parseConfig(
  `redis:\n  url: ${redisUrl()}\n  prefix: ${prefix}\nqueues:\n  concurrency: 4\n`,
  'test.yaml',
  {},
);

/** When each writer started and ended (ms since the epoch). */
const starts = new Map<string, number>();
const ends = new Map<string, number>();
/** The first writer holds its space until the test lets it go. */
let letGo: () => void = () => {};
const held = new Promise<void>((resolve) => {
  letGo = resolve;
});

const writer = testJob({
  name: 'test-writer',
  queue: 'import',
  payload: z.object({ space: z.string(), id: z.string() }),
  lockKey: (payload) => payload.space,
  async run(_ctx, payload) {
    starts.set(payload.id, Date.now());
    if (payload.id === 'holder') await held;
    ends.set(payload.id, Date.now());
    return { result: 'written' };
  },
});

/** The waits the runner gave the waiting writer, with when it logged each. */
const waits: Array<{ job: unknown; delayMs: number; at: number }> = [];
const captured = captureLog('debug', (line) => {
  if (line.msg === 'space busy, job delayed')
    waits.push({ job: line.job, delayMs: Number(line.delayMs), at: Date.now() });
});
const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
const queues = new Queues(connection, config, captured.log);
// Jitter fixed at its middle (factor 1): the waits are 25, 50, 100, 200, 400, 800 ms...
const runner = new JobRunner({
  definitions: [writer],
  connection,
  config,
  ...runnerPorts(createJobServices({ config, redis: connection, queues, log: captured.log })),
  log: captured.log,
  stopSignal: new AbortController().signal,
  random: () => 0.5,
});
runner.start();
afterAll(async () => {
  letGo();
  await runner.close();
  await queues.close();
  await connection.quit();
});

describe('a writer waiting for its space', () => {
  it('starts as soon as the writer before it releases the space, before its own retry is due', async () => {
    const imports = queues.get('import');
    await imports.add(
      'test-writer',
      { space: 's1', id: 'holder' },
      { jobId: jobId('writer', 's1', 'holder') },
    );
    await waitFor(() => starts.has('holder'), 'the first writer to start');
    const waiting = jobId('writer', 's1', 'waiting');
    await imports.add('test-writer', { space: 's1', id: 'waiting' }, { jobId: waiting });
    // Let the waiter back off until its next retry is far off: a wait of 800 ms or more.
    const longWait = await waitFor(
      () => waits.find((wait) => wait.job === waiting && wait.delayMs >= 800),
      'the waiter to back off to a long wait',
    );
    const retryDueAt = longWait.at + longWait.delayMs;
    letGo();
    await waitFor(() => ends.has('waiting'), 'the waiter to run');
    const released = ends.get('holder') ?? Number.NaN;
    const started = starts.get('waiting') ?? Number.NaN;
    // One space, one writer at a time: the waiter ran after the holder ended...
    expect(started).toBeGreaterThanOrEqual(released);
    // ...and was started by the release, not by its retry coming due.
    expect(started).toBeLessThan(retryDueAt);
    expect(captured.lines.some((line) => line.msg === 'lock waiter woken' && line.job === waiting)).toBe(
      true,
    );
  });
});
