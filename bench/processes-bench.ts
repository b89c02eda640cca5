// Several docsync processes on one Redis (`npm run bench -- processes`): 1, 2 and 3 `docsync start`
// processes (from the sources, each with its own data folder, as machines would have) share one
// private redis-server, against the local service in this process. Each round queues one change
// request poll per mapping (MAPPINGS spaces, each with docsync's open change request waiting for a
// review: a list, a review read and a merge verdict per job) and waits until all of them completed:
// the cycle time. jobs/s is all the polls of the rounds over their time. The ratio is to 1 process.
// On a 2-core machine the processes share the cores with each other, with Redis and with the
// service: more processes add workers, not CPU, so the figure shows what a second and third
// process cost or gain when CPU is the limit. Then the same with 1 and 3 processes on a local Redis
// Cluster of three masters (a hash-tagged prefix puts all of docsync's keys in one slot, so one
// master serves them: the figure shows what the cluster's client costs, not a spread of the load).
// It measures and prints; it never fails on a time.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue, QueueEvents } from 'bullmq';
import { Cluster, Redis } from 'ioredis';
import { QUEUE_NAMES } from '../src/queue/queue-names.js';
import { RedisMappingStateStore } from '../src/state/redis-mapping-state-store.js';
import { createBenchRepo } from './bench-git-repo.js';
import { startBenchRedis } from './bench-redis.js';
import { startBenchRedisCluster } from './bench-redis-cluster.js';
import { BENCH_ADMIN_TOKEN, startBenchService } from './bench-service.js';
import { type DocsyncChild, startDocsync } from './docsync-child.js';
import { figure } from './figure-table.js';
import { report } from './stats.js';

const MAPPINGS = 30;
const ROUNDS = 15;
const WARMUP_ROUNDS = 2;
const START_TIMEOUT_MS = 120_000;
const SETTLE_TIMEOUT_MS = 180_000;

interface Row {
  redis: string;
  processes: number;
  jobsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

/** Where the processes keep their queues: the config's redis section and a client of the bench's own. */
interface BenchStore {
  label: string;
  /** The `redis:` value of the configuration, as a YAML flow map. */
  redisYaml: string;
  prefix: string;
  connection: Redis | Cluster;
}

interface BenchWorld {
  dir: string;
  service: Awaited<ReturnType<typeof startBenchService>>;
  spaces: string[];
  mappings: string;
  children: DocsyncChild[];
}

export async function processesBench(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-bench-processes-'));
  await mkdir(join(dir, 'redis'));
  const redis = await startBenchRedis(join(dir, 'redis'));
  const service = await startBenchService();
  const children: DocsyncChild[] = [];
  const closing: Array<() => Promise<unknown>> = [];
  try {
    // One folder per mapping (mappings of one branch may not overlap), all in one repository.
    const files: Record<string, string> = {};
    for (let i = 0; i < MAPPINGS; i += 1)
      files[`docs-${i}/README.md`] = `# Docs ${i}\n\nThe pages of mapping m${i}.\n`;
    const repo = await createBenchRepo(join(dir, 'repo'), files);
    const spaces: string[] = [];
    for (let i = 0; i < MAPPINGS; i += 1) spaces.push(await service.createSpace(`Space ${i}`));
    // Every mapping follows the same repository (one mirror per process); the schedulers' own polls
    // are hourly, so the rounds' polls are the only ones that run while measuring.
    const mappings = spaces
      .map(
        (space, i) =>
          `  - { name: m${i}, space: ${space}, git: { repo: ${repo.remote}, branch: main, dir: docs-${i}, poll: 1h }, changeRequest: { poll: 1h }, merge: { enabled: true, approvals: 1 } }`,
      )
      .join('\n');
    const world: BenchWorld = { dir, service, spaces, mappings, children };

    const single = new Redis(redis.url, { maxRetriesPerRequest: null });
    closing.push(() => single.quit());
    const prefix = `processes-${process.pid}`;
    const rows = await measure(
      world,
      { label: 'one', redisYaml: `{ url: "${redis.url}", prefix: ${prefix} }`, prefix, connection: single },
      [1, 2, 3],
    );

    // The same on a cluster of three masters, its prefix hash-tagged (all of it in one slot).
    await mkdir(join(dir, 'cluster'));
    const cluster = await startBenchRedisCluster(join(dir, 'cluster'));
    closing.push(() => cluster.stop());
    const clustered = new Cluster(
      cluster.urls.map((url) => ({ host: new URL(url).hostname, port: Number(new URL(url).port) })),
      {
        redisOptions: { maxRetriesPerRequest: null },
      },
    );
    closing.push(() => clustered.quit());
    const tagged = `{${prefix}}`;
    rows.push(
      ...(await measure(
        world,
        {
          label: 'cluster-3',
          redisYaml: `{ cluster: { nodes: [${cluster.urls.join(', ')}] }, prefix: "${tagged}" }`,
          prefix: tagged,
          connection: clustered,
        },
        [1, 3],
      )),
    );

    const one = rows[0]?.jobsPerSecond ?? Number.NaN;
    process.stdout.write(
      `\n${MAPPINGS} change request polls per round, ${ROUNDS} rounds (after ${WARMUP_ROUNDS} uncounted); redis: one server, or a cluster of 3 masters; baseline: 1 process on one server\n`,
    );
    process.stdout.write(
      'redis      processes  jobs/s   cycle p50 ms  cycle p95 ms  cycle p99 ms  ratio to baseline\n',
    );
    for (const row of rows)
      process.stdout.write(
        `${row.redis.padEnd(10)} ${String(row.processes).padEnd(10)} ${row.jobsPerSecond.toFixed(1).padStart(6)}   ${row.p50.toFixed(0).padStart(12)}  ${row.p95.toFixed(0).padStart(12)}  ${row.p99.toFixed(0).padStart(12)}  ${(row.jobsPerSecond / one).toFixed(2).padStart(17)}\n`,
      );
    for (const row of rows)
      figure({
        name: `change request polls/s, ${row.processes} process(es), redis ${row.redis}`,
        docsync: row.jobsPerSecond,
        baseline: `1 process, one server: ${one.toFixed(1)}`,
        ratio: row.jobsPerSecond / one,
      });
    report('service requests during the bench', { requests: service.emulator.counter.snapshot().total });
  } finally {
    for (const child of children) await child.kill();
    for (const close of closing.reverse()) await close().catch(() => undefined);
    await service.close();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Imports every mapping once on the store (uncounted), then measures the rounds with each count of processes. */
async function measure(world: BenchWorld, store: BenchStore, counts: readonly number[]): Promise<Row[]> {
  const { dir, service, spaces, mappings, children } = world;
  const { connection, prefix } = store;
  const maintain = new Queue('maintain', { connection, prefix });
  const events = new QueueEvents('maintain', { connection, prefix });
  try {
    const configFor = async (name: string) => {
      const file = join(dir, `${store.label}-${name}.yaml`);
      await writeFile(
        file,
        `dataDir: ${join(dir, `${store.label}-${name}`)}\nredis: ${store.redisYaml}\nservice: { baseUrl: "${service.baseUrl}", token: ${BENCH_ADMIN_TOKEN} }\nhttp: { listen: 127.0.0.1:0 }\nlog: { level: info }\nmappings:\n${mappings}\n`,
      );
      return file;
    };

    // Setup, uncounted: one process imports every mapping once (its change request stays open).
    const first = startDocsync(await configFor('setup'));
    children.push(first);
    await first.waitForLine('docsync started', START_TIMEOUT_MS);
    const state = new RedisMappingStateStore(connection, prefix);
    await until(async () => {
      for (let i = 0; i < MAPPINGS; i += 1)
        if ((await state.get(`m${i}`)).changeRequestId === undefined) return false;
      return idle(connection, prefix);
    }, `every mapping imported (${store.label})`);
    await first.stop();

    let completed = 0;
    events.on('completed', () => {
      completed += 1;
    });
    await events.waitUntilReady();
    const rows: Row[] = [];
    for (const count of counts) {
      const running: DocsyncChild[] = [];
      for (let n = 0; n < count; n += 1) running.push(startDocsync(await configFor(`run-${count}-${n}`)));
      children.push(...running);
      await Promise.all(running.map((child) => child.waitForLine('docsync started', START_TIMEOUT_MS)));
      await until(() => idle(connection, prefix), 'the processes idle after their start');
      const cycles: number[] = [];
      let jobs = 0;
      let busyMs = 0;
      for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round += 1) {
        const before = completed;
        const started = performance.now();
        await maintain.addBulk(
          spaces.map((_, i) => ({
            name: 'poll-change-requests',
            data: { mapping: `m${i}` },
            opts: { jobId: `bench/${store.label}/${count}/${round}/m${i}`, removeOnComplete: true },
          })),
        );
        await until(async () => completed - before >= MAPPINGS, `round ${round} of ${count} processes`, 5);
        const ms = performance.now() - started;
        if (round < WARMUP_ROUNDS) continue;
        cycles.push(ms);
        jobs += MAPPINGS;
        busyMs += ms;
      }
      const sorted = [...cycles].sort((a, b) => a - b);
      const at = (q: number) =>
        sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
      rows.push({
        redis: store.label,
        processes: count,
        jobsPerSecond: jobs / (busyMs / 1000),
        p50: at(0.5),
        p95: at(0.95),
        p99: at(0.99),
      });
      await Promise.all(running.map((child) => child.stop()));
    }
    return rows;
  } finally {
    await events.close();
    await maintain.close();
  }
}

/** No job waiting, prioritized or active on any queue (delayed ones are the schedulers' next ticks). */
async function idle(connection: Redis | Cluster, prefix: string): Promise<boolean> {
  for (const name of QUEUE_NAMES) {
    const queue = new Queue(name, { connection, prefix });
    const counts = await queue.getJobCounts('waiting', 'prioritized', 'active');
    await queue.close();
    if ((counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.active ?? 0) > 0) return false;
  }
  return true;
}

async function until(test: () => Promise<boolean>, what: string, everyMs = 200): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (!(await test())) {
    if (Date.now() > deadline)
      throw new Error(`bench: ${what} did not happen within ${SETTLE_TIMEOUT_MS} ms`);
    await sleep(everyMs);
  }
}
