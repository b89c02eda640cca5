// A job whose process was killed (SIGKILL: no cleanup ran) runs again in another process soon:
// BullMQ finds it stalled once its lock expires (queues.lockDuration, stalledInterval), and the
// space lock the dead run still holds is taken over at once instead of waiting out its ttl (ten
// minutes here, far past the wait below).
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../../src/config/load-config.js';
import { createJobServices } from '../../../src/daemon/create-job-services.js';
import { runnerPorts } from '../../../src/daemon/runner-ports.js';
import { PACKAGE_ROOT } from '../../../src/package-info.js';
import { JobRunner } from '../../../src/queue/job-runner.js';
import { Queues } from '../../../src/queue/queues.js';
import { SpaceLocks } from '../../../src/queue/space-locks.js';
import { cliEnv, startCli } from '../../support/cli-process.js';
import { closeAfter } from '../../support/close-after.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { testJob } from '../../support/test-job.js';
import { waitFor } from '../../support/wait-for.js';

// The job test/support/stranded-job-process.ts runs and never finishes.
const HOLD_SPACE = 'hold-space';
const holdSpacePayload = z.object({ space: z.string() });

describe('a job stranded by a killed process', () => {
  it('runs again in another process without waiting for the space lock to expire', async () => {
    const prefix = uniquePrefix('stranded');
    const redis = testRedis(prefix);
    const config = parseConfig(
      `redis:\n  url: ${redisUrl()}\n  prefix: ${prefix}\nlocks:\n  ttl: 10m\n  busyDelay: 200ms\n`,
      'test.yaml',
      {},
    );
    const producer = new Queues(redis, config, captureLog().log);
    closeAfter(() => producer.close());
    await producer.get('maintain').add(HOLD_SPACE, { space: 'space-1' }, { jobId: 'hold/space-1' });

    const doomed = startCli([], {
      command: [
        process.execPath,
        '--import',
        'tsx',
        join(PACKAGE_ROOT, 'test/support/stranded-job-process.ts'),
      ],
      env: cliEnv({ REDIS_URL: redisUrl(), DOCSYNC_PREFIX: prefix }),
    });
    await doomed.waitForLog('holding the space until killed', 30_000);
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const locks = new SpaceLocks(redis, { prefix, ttlMs: 600_000, log: captureLog().log });
    expect(await locks.holder('space-1')).toBeDefined();

    // The second process: the same job, which now finishes.
    const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
    const captured = captureLog();
    const queues = new Queues(connection, config, captured.log);
    const finished = testJob({
      name: HOLD_SPACE,
      queue: 'maintain',
      payload: holdSpacePayload,
      lockKey: (payload) => payload.space,
      async run() {
        return { result: 'done' };
      },
    });
    const runner = new JobRunner({
      definitions: [finished],
      connection,
      config,
      ...runnerPorts(createJobServices({ config, redis: connection, queues, log: captured.log })),
      log: captured.log,
      stopSignal: new AbortController().signal,
    });
    runner.start();
    closeAfter(async () => {
      await runner.close();
      await queues.close();
      await connection.quit();
    });
    // lockDuration (8 s) + stalledInterval (4 s) at the most, with room for a loaded machine.
    await waitFor(
      async () =>
        (await producer.get('maintain').getJobState('hold/space-1')) === 'completed' ? true : undefined,
      'the stranded job to complete in the second process',
      30_000,
    );
    expect(captured.lines.some((line) => line.msg === 'space lock of a job run that ended taken over')).toBe(
      true,
    );
    expect(await locks.holder('space-1')).toBeUndefined();
  });

  it('leaves the lock of a run that is alive alone', async () => {
    const prefix = uniquePrefix('alive-lock');
    const redis = testRedis(prefix);
    const locks = new SpaceLocks(redis, { prefix, ttlMs: 3_000, log: captureLog().log });
    // BullMQ's lock of the holder's job holds the holder's token: the run is alive.
    await redis.set(`${prefix}:maintain:job-1:lock`, 'token-1', 'PX', 60_000);
    const held = await locks.tryAcquire('space-2', 'p1', {
      queue: 'maintain',
      job: 'job-1',
      token: 'token-1',
    });
    expect(held).toBeDefined();
    expect(
      await locks.tryAcquire('space-2', 'p2', { queue: 'maintain', job: 'job-2', token: 'token-2' }),
    ).toBeUndefined();
    // Another worker took the job over (a new token): the old run is over.
    await redis.set(`${prefix}:maintain:job-1:lock`, 'token-3', 'PX', 60_000);
    const taken = await locks.tryAcquire('space-2', 'p2', {
      queue: 'maintain',
      job: 'job-2',
      token: 'token-2',
    });
    expect(taken).toBeDefined();
    await waitFor(() => held?.lost.aborted || undefined, 'the old holder to learn it lost the lock', 30_000);
    await taken?.release();
    await held?.release();
  });
});
