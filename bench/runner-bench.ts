// Throughput of the job runner on a private redis-server: trivial jobs, with and without the
// per-space lock, two runners (two "processes") sharing the queue.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { z } from 'zod';
import { parseConfig } from '../src/config/load-config.js';
import { createJobDeps } from '../src/daemon/create-job-deps.js';
import type { Logger } from '../src/log/create-logger.js';
import { defineJob } from '../src/queue/job-definition.js';
import { jobId } from '../src/queue/job-id.js';
import { JobRunner } from '../src/queue/job-runner.js';
import { Queues } from '../src/queue/queues.js';
import { startEmbeddedRedis } from '../src/redis/embedded-redis-server.js';
import { report } from './stats.js';

const JOBS = 2000;

export async function runnerBench(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-bench-runner-'));
  const log = pino({ level: 'silent' });
  const server = await startEmbeddedRedis({ dir, log });
  try {
    for (const spaces of [0, 50, 1]) await measure(server.url, spaces, log);
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function measure(url: string, spaces: number, log: Logger): Promise<void> {
  const prefix = `bench-${spaces}-${Date.now()}`;
  const config = parseConfig(
    `redis:\n  url: ${url}\n  prefix: ${prefix}\nqueues:\n  concurrency: 8\nlocks:\n  busyDelay: 100ms\n`,
    'bench.yaml',
    {},
  );
  let done = 0;
  const noop = defineJob({
    name: 'noop',
    queue: 'maintain',
    payload: z.object({ space: z.string().optional() }),
    lockKey: (payload) => payload.space,
    async run() {
      done += 1;
      return { result: 'ok' };
    },
  });
  const connections = [
    new Redis(url, { maxRetriesPerRequest: null }),
    new Redis(url, { maxRetriesPerRequest: null }),
  ];
  const producer = new Queues(connections[0] as Redis, config, log);
  await producer.get('maintain').addBulk(
    Array.from({ length: JOBS }, (_, i) => ({
      name: 'noop',
      data: spaces > 0 ? { space: `space-${i % spaces}` } : {},
      opts: { jobId: jobId('noop', i) },
    })),
  );
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const runners = connections.map((connection) => {
    const runner = new JobRunner({
      definitions: [noop],
      connection,
      config,
      deps: createJobDeps({ config, redis: connection, queues: producer, log }),
      log,
      stopSignal: new AbortController().signal,
    });
    runner.start();
    return runner;
  });
  while (done < JOBS) await new Promise((resolve) => setTimeout(resolve, 5));
  const seconds = (performance.now() - started) / 1000;
  const rssMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
  await Promise.all(runners.map((runner) => runner.close()));
  await producer.close();
  await Promise.all(connections.map((connection) => connection.quit()));
  const label =
    spaces === 0 ? 'no lock' : spaces === 1 ? 'all on 1 space (serialised)' : `lock, ${spaces} spaces`;
  report(`runner ${JOBS} jobs, 2x8 workers, ${label}`, {
    jobsPerSecond: JOBS / seconds,
    seconds,
    rssGrowthMb: rssMb,
  });
}
