// docsync on a primary and replica watched by Redis Sentinel: it finds the primary through the
// sentinel, and a failover in the middle of a run loses no job.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jobId } from '../../../src/queue/job-id.js';
import { doctorRedisFinding } from '../../support/doctor-redis-finding.js';
import { type RedisSentinelSet, startRedisSentinelSet } from '../../support/redis-sentinel.js';
import { startDaemonOnRedis } from '../../support/start-daemon-on-redis.js';
import { testJob } from '../../support/test-job.js';
import { waitFor } from '../../support/wait-for.js';

const finished = new Set<string>();
const tally = testJob({
  name: 'tally',
  queue: 'maintain',
  payload: z.object({ id: z.string() }),
  async run(_ctx, payload) {
    // Long enough that jobs are running while the primary changes.
    await sleep(100);
    finished.add(payload.id);
    return { result: 'counted' };
  },
});

const ids = (label: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${label}-${index}`);

/**
 * Queues jobs, lets some run, moves the primary with `move` (resolving with the new primary's port),
 * queues more, and waits for every one of them to complete.
 */
async function runThroughFailover(label: string, move: (set: RedisSentinelSet) => Promise<number>) {
  const set = await startRedisSentinelSet();
  const daemon = await startDaemonOnRedis({
    redis: `  sentinel:\n    sentinels: [${set.sentinel}]\n    name: ${set.name}\n  prefix: sentinel-${randomUUID().slice(0, 8)}\n`,
    jobs: [tally],
    yaml: 'queues: { concurrency: 2, lockDuration: 2s, stalledInterval: 1s, backoff: 200ms }\n',
  });
  expect(daemon.lines.find((line) => line.msg === 'redis connected')).toMatchObject({ mode: 'sentinel' });
  expect(
    await doctorRedisFinding(`  sentinel:\n    sentinels: [${set.sentinel}]\n    name: ${set.name}\n`),
  ).toMatchObject({
    status: 'ok',
    message: `sentinel ${set.name} via ${set.sentinel} answers (Sentinel, connected to the primary it names)`,
  });
  const queue = daemon.queues.get('maintain');
  // The producer connection fails fast while it reconnects: jobs are queued as a producer would
  // retry, until a primary takes them.
  const add = (id: string) =>
    waitFor(
      () =>
        queue.add('tally', { id }, { jobId: jobId('tally', id) }).then(
          () => true,
          () => false,
        ),
      `queuing ${id}`,
    );

  const before = ids(`${label}-before`, 30);
  for (const id of before) await add(id);
  // Replication is asynchronous: what the primary acknowledged but did not pass on before it
  // stepped down is gone, in any Redis. Queued work is on the replica before the failover starts.
  const primary = new Redis({ host: '127.0.0.1', port: await set.primaryPort(), maxRetriesPerRequest: 1 });
  expect(await primary.wait(1, 5000)).toBe(1);
  primary.disconnect();
  const done = () => before.filter((id) => finished.has(id)).length;
  await waitFor(() => done() >= 3, 'the run to be under way');
  expect(done()).toBeLessThan(before.length);

  const newPrimary = await move(set);
  // Until the sentinel demotes it, an old primary still alive takes writes that the failover then
  // throws away: docsync's clients leave it when the sentinel announces the switch (ioredis's
  // failover detector), and jobs are queued after that.
  // ioredis retries a refused connection with a back-off of up to 2 s, asking the sentinel each
  // time: on a loaded machine (CI runs test files side by side) that has taken more than 15 s.
  const producer = daemon.redis.producer() as Redis;
  await waitFor(
    () => producer.stream?.remotePort === newPrimary,
    'the producer to reach the new primary',
    30_000,
  ).catch(async (error: unknown) => {
    // What the client and the sentinel see, so that a failure says where the client went.
    const named = await set.primaryPort().catch((cause: unknown) => String(cause));
    throw new Error(
      `${(error as Error).message}: producer ${producer.status} on port ${String(producer.stream?.remotePort)}, the sentinel names ${String(named)}, the promoted one was ${newPrimary}`,
    );
  });

  const after = ids(`${label}-after`, 10);
  for (const id of after) await add(id);
  await waitFor(
    () => [...before, ...after].every((id) => finished.has(id)),
    'every job queued before and after the failover to complete',
    20_000,
  );
  const worker = daemon.redis.worker() as Redis;
  expect(worker.stream.remotePort).toBe(newPrimary);
}

// The waits add up past the default test timeout on a loaded machine: a failover, a reconnect, a run.
const FAILOVER_TEST_MS = 90_000;

describe('docsync on Redis Sentinel', () => {
  it(
    'follows a failover during a run: jobs queued before and after it all complete',
    async () => {
      await runThroughFailover('failover', (set) => set.failover());
    },
    FAILOVER_TEST_MS,
  );

  it(
    'follows the replica promoted after the primary is killed during a run, losing no job',
    async () => {
      await runThroughFailover('killed', (set) => set.killPrimary());
    },
    FAILOVER_TEST_MS,
  );
});
