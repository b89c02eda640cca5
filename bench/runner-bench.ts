// Throughput of the job runner on a private redis-server: no-op jobs through docsync's runner,
// with and without the per-space lock (50 spaces), each beside raw BullMQ workers running the same
// processor at the same concurrency on the same Redis in the same run. The figure is the median of
// ROUNDS ratios, each of one docsync run and the raw BullMQ run beside it (a noisy neighbour hurts a
// pair alike, and a best of each side apart would pair one side's quiet moment with the other's
// busy one).
// Two runners (two "processes") share the queue; the log level is production's (info) and
// busyDelay is the default one.
// Beside jobs/s, each side's CPU per job (this process's, and Redis's from INFO) and its Lua script
// calls per job: on a shared machine these move less with a neighbour than a rate does, and they
// show what the lock costs (one script call per few jobs, and its round trip on each job's path).
// A last pair of rows runs jobs that await IO_JOB_MS each, shorter than any call to the service or
// git: what the lock's round trip costs beside a job that waits on I/O.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { z } from 'zod';
import type { Config } from '../src/config/config-schema.js';
import { parseConfig } from '../src/config/load-config.js';
import { createJobServices } from '../src/daemon/create-job-services.js';
import { runnerPorts } from '../src/daemon/runner-ports.js';
import type { Logger } from '../src/log/create-logger.js';
import type { JobDefinition } from '../src/queue/job-definition.js';
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
/** The awaited time of each job of the I/O-bound rows, and their count (at 16 slots, about 1 s a run). */
const IO_JOB_MS = 10;
const IO_JOBS = 1500;

type Engine = 'docsync' | 'bullmq';

/** One run: its rate, and what a job cost each process. */
interface Run {
  jobsPerSecond: number;
  /** This process's CPU (user and system, every thread) per job, in µs. */
  nodeCpuUs: number;
  /** Redis's CPU per job, in µs (INFO cpu, main thread and its I/O). */
  redisCpuUs: number;
  /** EVALSHA and EVAL calls per job: BullMQ's scripts and docsync's lock calls. */
  scriptCalls: number;
}

interface Workload {
  jobs: number;
  /** Spaces the jobs are spread over, one lock key each; 0: no lock key. */
  spaces: number;
  /** What each job awaits before it returns; 0: a no-op job. */
  workMs: number;
}

export async function runnerBench(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-bench-runner-'));
  const quiet = pino({ level: 'silent' });
  // docsync's logger at the production level, written as the daemon writes, where nobody reads it.
  const log = productionLog();
  const server = await startEmbeddedRedis({ dir, log: quiet });
  const admin = new Redis(server.url);
  try {
    // A warm-up of both, uncounted: the first run of a process pays for its JIT and connections.
    for (const engine of ['bullmq', 'docsync'] as const)
      await measure(server.url, admin, engine, { jobs: JOBS, spaces: 50, workMs: 0 }, log);
    for (const spaces of [0, 50]) {
      const label = `runner ${JOBS} no-op jobs, 2x${CONCURRENCY}, ${spaces === 0 ? 'no lock' : `lock, ${spaces} spaces`}`;
      const target = spaces === 0 ? 0.95 : 0.85;
      const { ratio, docsync, bullmq } = await compare(
        server.url,
        admin,
        { jobs: JOBS, spaces, workMs: 0 },
        log,
        label,
        target,
      );
      figure({
        name: `${label} (jobs/s)`,
        docsync,
        baseline: bullmq,
        ratio,
        target: `>= ${target}`,
        met: ratio >= target,
      });
    }
    // What the lock costs a job that waits on I/O, as docsync's jobs do: no target of the issue's.
    for (const spaces of [0, 50]) {
      const label = `runner ${IO_JOBS} jobs of ${IO_JOB_MS} ms, 2x${CONCURRENCY}, ${spaces === 0 ? 'no lock' : `lock, ${spaces} spaces`}`;
      const { ratio, docsync, bullmq } = await compare(
        server.url,
        admin,
        { jobs: IO_JOBS, spaces, workMs: IO_JOB_MS },
        log,
        label,
        undefined,
      );
      figure({ name: `${label} (jobs/s)`, docsync, baseline: bullmq, ratio });
    }
  } finally {
    await admin.quit();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * ROUNDS runs of each side, interleaved, reported with their spread: the rate is the median of the
 * rounds' ratios, the CPU and script figures the medians of each side's runs.
 */
async function compare(
  url: string,
  admin: Redis,
  workload: Workload,
  log: Logger,
  label: string,
  target: number | undefined,
): Promise<{ ratio: number; docsync: number; bullmq: number }> {
  const runs: Record<Engine, Run[]> = { docsync: [], bullmq: [] };
  // Interleaved rounds, so that a noisy neighbour hurts both sides alike, each side first in every
  // other round: the side that runs second collects the first one's garbage and finds the Redis it
  // filled.
  for (let round = 0; round < ROUNDS; round += 1)
    for (const engine of round % 2 === 0
      ? (['bullmq', 'docsync'] as const)
      : (['docsync', 'bullmq'] as const))
      runs[engine].push(await measure(url, admin, engine, workload, log));
  const rates = (engine: Engine) => runs[engine].map((run) => run.jobsPerSecond);
  const ratios = rates('docsync').map((value, round) => value / (rates('bullmq')[round] ?? Number.NaN));
  const ratio = median(ratios);
  const docsync = median(rates('docsync'));
  const bullmq = median(rates('bullmq'));
  const of = (engine: Engine, key: 'nodeCpuUs' | 'redisCpuUs' | 'scriptCalls') =>
    median(runs[engine].map((run) => run[key]));
  report(label, {
    docsyncJobsPerSecond: docsync,
    rawBullmqJobsPerSecond: bullmq,
    ratio,
    ratios: ratios.map((value) => value.toFixed(2)).join(' '),
    // Each run, round by round: on a shared machine one run's neighbour shows here.
    docsyncRuns: rates('docsync')
      .map((value) => value.toFixed(0))
      .join(' '),
    bullmqRuns: rates('bullmq')
      .map((value) => value.toFixed(0))
      .join(' '),
    ...(target === undefined ? {} : { target, met: ratio >= target ? 'yes' : 'no' }),
  });
  report(`  per job: docsync / raw BullMQ`, {
    nodeCpuUs: `${of('docsync', 'nodeCpuUs').toFixed(1)} / ${of('bullmq', 'nodeCpuUs').toFixed(1)}`,
    redisCpuUs: `${of('docsync', 'redisCpuUs').toFixed(1)} / ${of('bullmq', 'redisCpuUs').toFixed(1)}`,
    scriptCalls: `${of('docsync', 'scriptCalls').toFixed(2)} / ${of('bullmq', 'scriptCalls').toFixed(2)}`,
  });
  return { ratio, docsync, bullmq };
}

/** One run of the workload's jobs through one engine. */
async function measure(
  url: string,
  admin: Redis,
  engine: Engine,
  { jobs, spaces, workMs }: Workload,
  log: Logger,
): Promise<Run> {
  const prefix = `bench-${engine}-${spaces}-${workMs}-${Date.now()}`;
  const config = parseConfig(
    `redis:\n  url: ${url}\n  prefix: ${prefix}\nqueues:\n  concurrency: ${CONCURRENCY}\n`,
    'bench.yaml',
    {},
  );
  let done = 0;
  const processor =
    workMs === 0
      ? async () => {
          done += 1;
          return { result: 'ok' };
        }
      : async () => {
          await sleep(workMs);
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
    Array.from({ length: jobs }, (_, i) => ({
      name: 'noop',
      data: spaces > 0 ? { space: `space-${i % spaces}` } : {},
      opts: { jobId: jobId('noop', i) },
    })),
  );
  const redisBefore = await redisFigures(admin);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const stops =
    engine === 'docsync'
      ? startDocsync(connections, config, producer, log, processor)
      : startBullmq(connections, config, processor);
  while (done < jobs) await sleep(5);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const redisAfter = await redisFigures(admin);
  await Promise.all(stops.map((stop) => stop()));
  await producer.close();
  await feeder.quit();
  if (engine === 'docsync') await Promise.all(owners.map((owner) => owner.close()));
  else await Promise.all(connections.map((connection) => connection.quit()));
  return {
    jobsPerSecond: jobs / seconds,
    nodeCpuUs: (cpu.user + cpu.system) / jobs,
    redisCpuUs: ((redisAfter.cpuSeconds - redisBefore.cpuSeconds) * 1e6) / jobs,
    scriptCalls: (redisAfter.scriptCalls - redisBefore.scriptCalls) / jobs,
  };
}

/** Redis's CPU so far (seconds) and its script calls so far. */
async function redisFigures(admin: Redis): Promise<{ cpuSeconds: number; scriptCalls: number }> {
  const info = `${await admin.info('cpu')}\n${await admin.info('commandstats')}`;
  const field = (name: string) =>
    Number(new RegExp(`(?:^|\\n)${name}:([\\d.]+)`).exec(info)?.[1] ?? Number.NaN);
  const calls = (command: string) =>
    Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
  return {
    cpuSeconds: field('used_cpu_user') + field('used_cpu_sys'),
    scriptCalls: calls('evalsha') + calls('eval'),
  };
}

function startDocsync(
  connections: readonly RedisClient[],
  config: Config,
  producer: Queues,
  log: Logger,
  processor: () => Promise<{ result: string }>,
): (() => Promise<void>)[] {
  // A whole definition: no kind file, no service, nothing counted (the runner's own cost is measured).
  const noop: JobDefinition<{ space?: string | undefined }> = {
    name: 'noop',
    queue: 'maintain',
    payload: z.object({ space: z.string().optional() }),
    needs: [],
    countsToward: false,
    lockKey: (payload) => payload.space,
    run: processor,
  };
  return connections.map((connection) => {
    const runner = new JobRunner({
      definitions: [noop],
      connection,
      config,
      ...runnerPorts(createJobServices({ config, redis: connection, queues: producer, log })),
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
