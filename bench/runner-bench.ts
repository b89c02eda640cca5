// Throughput of the job runner on a private redis-server: no-op jobs through docsync's runner,
// with and without the per-space lock (50 spaces), each beside raw BullMQ workers running the same
// processor at the same concurrency on the same Redis in the same run. The figure is the median of
// ROUNDS ratios, each of one docsync run and the raw BullMQ run beside it (a noisy neighbour hurts a
// pair alike, and a best of each side apart would pair one side's quiet moment with the other's
// busy one).
// Two runners (two "processes") share the queue; the log level is production's (info) and
// busyDelay is the default one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { z } from 'zod';
import type { Config } from '../src/config/config-schema.js';
import { parseConfig } from '../src/config/load-config.js';
import { createJobDeps } from '../src/daemon/create-job-deps.js';
import type { Logger } from '../src/log/create-logger.js';
import { defineJob } from '../src/queue/job-definition.js';
import { jobId } from '../src/queue/job-id.js';
import { JobRunner } from '../src/queue/job-runner.js';
import { Queues } from '../src/queue/queues.js';
import { startEmbeddedRedis } from '../src/redis/embedded-redis-server.js';
import { type RedisClient, RedisConnections } from '../src/redis/redis-connections.js';
import { figure } from './figure-table.js';
import { productionLog } from './production-log.js';
import { median, report } from './stats.js';

const JOBS = 5000;
const CONCURRENCY = 8;
const ROUNDS = 5;

type Engine = 'docsync' | 'bullmq';

export async function runnerBench(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-bench-runner-'));
  const quiet = pino({ level: 'silent' });
  // docsync's logger at the production level, written as the daemon writes, where nobody reads it.
  const log = productionLog();
  const server = await startEmbeddedRedis({ dir, log: quiet });
  try {
    // A warm-up of both, uncounted: the first run of a process pays for its JIT and connections.
    for (const engine of ['bullmq', 'docsync'] as const) await measure(server.url, engine, 50, log);
    for (const spaces of [0, 50]) {
      const figures: Record<Engine, number[]> = { docsync: [], bullmq: [] };
      // Interleaved rounds, so that a noisy neighbour hurts both sides alike, each side first in
      // every other round: the side that runs second collects the first one's garbage and finds
      // the Redis it filled.
      for (let round = 0; round < ROUNDS; round += 1)
        for (const engine of round % 2 === 0
          ? (['bullmq', 'docsync'] as const)
          : (['docsync', 'bullmq'] as const))
          figures[engine].push(await measure(server.url, engine, spaces, log));
      const ratio = median(
        figures.docsync.map((value, round) => value / (figures.bullmq[round] ?? Number.NaN)),
      );
      const docsync = median(figures.docsync);
      const bullmq = median(figures.bullmq);
      const label = `runner ${JOBS} no-op jobs, 2x${CONCURRENCY}, ${spaces === 0 ? 'no lock' : `lock, ${spaces} spaces`}`;
      const target = spaces === 0 ? 0.95 : 0.85;
      report(label, {
        docsyncJobsPerSecond: docsync,
        rawBullmqJobsPerSecond: bullmq,
        ratio,
        ratios: figures.docsync
          .map((value, round) => (value / (figures.bullmq[round] ?? Number.NaN)).toFixed(2))
          .join(' '),
        // Each run, round by round: on a shared machine one run's neighbour shows here.
        docsyncRuns: figures.docsync.map((value) => value.toFixed(0)).join(' '),
        bullmqRuns: figures.bullmq.map((value) => value.toFixed(0)).join(' '),
        target,
        met: ratio >= target ? 'yes' : 'no',
      });
      figure({
        name: `${label} (jobs/s)`,
        docsync,
        baseline: bullmq,
        ratio,
        target: `>= ${target}`,
        met: ratio >= target,
      });
    }
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Jobs per second of one run of JOBS no-op jobs. */
async function measure(url: string, engine: Engine, spaces: number, log: Logger): Promise<number> {
  const prefix = `bench-${engine}-${spaces}-${Date.now()}`;
  const config = parseConfig(
    `redis:\n  url: ${url}\n  prefix: ${prefix}\nqueues:\n  concurrency: ${CONCURRENCY}\n`,
    'bench.yaml',
    {},
  );
  let done = 0;
  const processor = async () => {
    done += 1;
    return { result: 'ok' };
  };
  // Each side connects as it would in production: docsync through its own connections (one per
  // "process", src/redis/redis-connections.ts), raw BullMQ through a plain ioredis client.
  const owners =
    engine === 'docsync' ? [new RedisConnections({ url }, log), new RedisConnections({ url }, log)] : [];
  const connections: RedisClient[] =
    engine === 'docsync'
      ? owners.map((owner) => owner.worker())
      : [new Redis(url, { maxRetriesPerRequest: null }), new Redis(url, { maxRetriesPerRequest: null })];
  const feeder = new Redis(url, { maxRetriesPerRequest: null });
  const producer = new Queues(feeder, config, log);
  await producer.get('maintain').addBulk(
    Array.from({ length: JOBS }, (_, i) => ({
      name: 'noop',
      data: spaces > 0 ? { space: `space-${i % spaces}` } : {},
      opts: { jobId: jobId('noop', i) },
    })),
  );
  const started = performance.now();
  const stops =
    engine === 'docsync'
      ? startDocsync(connections, config, producer, log, processor)
      : startBullmq(connections, config, processor);
  while (done < JOBS) await new Promise((resolve) => setTimeout(resolve, 5));
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(stops.map((stop) => stop()));
  await producer.close();
  await feeder.quit();
  if (engine === 'docsync') await Promise.all(owners.map((owner) => owner.close()));
  else await Promise.all(connections.map((connection) => connection.quit()));
  return JOBS / seconds;
}

function startDocsync(
  connections: readonly RedisClient[],
  config: Config,
  producer: Queues,
  log: Logger,
  processor: () => Promise<{ result: string }>,
): (() => Promise<void>)[] {
  const noop = defineJob({
    name: 'noop',
    queue: 'maintain',
    payload: z.object({ space: z.string().optional() }),
    lockKey: (payload) => payload.space,
    run: processor,
  });
  return connections.map((connection) => {
    const runner = new JobRunner({
      definitions: [noop],
      connection,
      config,
      deps: createJobDeps({ config, redis: connection, queues: producer, log }),
      log,
      stopSignal: new AbortController().signal,
    });
    runner.start();
    return () => runner.close();
  });
}

/** The baseline: BullMQ workers with the same processor, concurrency and lock settings, nothing else. */
function startBullmq(
  connections: readonly RedisClient[],
  config: Config,
  processor: () => Promise<{ result: string }>,
): (() => Promise<void>)[] {
  return connections.map((connection) => {
    const worker = new Worker('maintain', processor, {
      connection,
      prefix: config.redis.prefix,
      concurrency: config.queues.concurrency,
      lockDuration: config.queues.lockDuration,
      stalledInterval: config.queues.stalledInterval,
    });
    return () => worker.close();
  });
}
