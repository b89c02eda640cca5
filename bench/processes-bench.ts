// Several docsync processes on one Redis (`npm run bench -- processes`): 1, 2 and 3 `docsync start`
// processes (from the sources, each with its own data folder, as machines would have) share one
// private redis-server, against the local service in this process. Each round queues one change
// request poll per mapping (MAPPINGS spaces, each with docsync's open change request waiting for a
// review: a list, a review read and a merge verdict per job) and waits until all of them completed:
// the cycle time. jobs/s is all the polls of the rounds over their time. The ratio is to 1 process.
// On a 2-core machine the processes share the cores with each other, with Redis and with the
// service: more processes add workers, not CPU, so the figure shows what a second and third
// process cost or gain when CPU is the limit. It measures and prints; it never fails on a time.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUE_NAMES } from '../src/queue/queue-names.js';
import { RedisMappingStateStore } from '../src/state/redis-mapping-state-store.js';
import { createBenchRepo } from './bench-git-repo.js';
import { startBenchRedis } from './bench-redis.js';
import { BENCH_ADMIN_TOKEN, startBenchService } from './bench-service.js';
import { type DocsyncChild, startDocsync } from './docsync-child.js';
import { report } from './stats.js';

const MAPPINGS = 30;
const ROUNDS = 15;
const WARMUP_ROUNDS = 2;
const START_TIMEOUT_MS = 120_000;
const SETTLE_TIMEOUT_MS = 180_000;

interface Row {
  processes: number;
  jobsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

export async function processesBench(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-bench-processes-'));
  await mkdir(join(dir, 'redis'));
  const redis = await startBenchRedis(join(dir, 'redis'));
  const service = await startBenchService();
  const prefix = `processes-${process.pid}`;
  const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
  const maintain = new Queue('maintain', { connection, prefix });
  const events = new QueueEvents('maintain', { connection: { url: redis.url }, prefix });
  const children: DocsyncChild[] = [];
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
    const configFor = async (name: string) => {
      const file = join(dir, `${name}.yaml`);
      await writeFile(
        file,
        `dataDir: ${join(dir, name)}\nredis: { url: "${redis.url}", prefix: ${prefix} }\nservice: { baseUrl: "${service.baseUrl}", token: ${BENCH_ADMIN_TOKEN} }\nhttp: { listen: 127.0.0.1:0 }\nlog: { level: info }\nmappings:\n${mappings}\n`,
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
      return idle(redis.url, prefix);
    }, 'every mapping imported');
    await first.stop();

    let completed = 0;
    events.on('completed', () => {
      completed += 1;
    });
    await events.waitUntilReady();
    const rows: Row[] = [];
    for (const count of [1, 2, 3]) {
      const running: DocsyncChild[] = [];
      for (let n = 0; n < count; n += 1) running.push(startDocsync(await configFor(`run-${count}-${n}`)));
      children.push(...running);
      await Promise.all(running.map((child) => child.waitForLine('docsync started', START_TIMEOUT_MS)));
      await until(() => idle(redis.url, prefix), 'the processes idle after their start');
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
            opts: { jobId: `bench/${count}/${round}/m${i}`, removeOnComplete: true },
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
        processes: count,
        jobsPerSecond: jobs / (busyMs / 1000),
        p50: at(0.5),
        p95: at(0.95),
        p99: at(0.99),
      });
      await Promise.all(running.map((child) => child.stop()));
    }
    const one = rows[0]?.jobsPerSecond ?? Number.NaN;
    process.stdout.write(
      `\n${MAPPINGS} change request polls per round, ${ROUNDS} rounds (after ${WARMUP_ROUNDS} uncounted), one Redis\n`,
    );
    process.stdout.write('processes  jobs/s   cycle p50 ms  cycle p95 ms  cycle p99 ms  ratio to 1\n');
    for (const row of rows)
      process.stdout.write(
        `${String(row.processes).padEnd(10)} ${row.jobsPerSecond.toFixed(1).padStart(6)}   ${row.p50.toFixed(0).padStart(12)}  ${row.p95.toFixed(0).padStart(12)}  ${row.p99.toFixed(0).padStart(12)}  ${(row.jobsPerSecond / one).toFixed(2).padStart(10)}\n`,
      );
    report('service requests during the bench', { requests: service.emulator.counter.snapshot().total });
  } finally {
    for (const child of children) await child.kill();
    await events.close();
    await maintain.close();
    await connection.quit();
    await service.close();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** No job waiting, prioritized or active on any queue (delayed ones are the schedulers' next ticks). */
async function idle(url: string, prefix: string): Promise<boolean> {
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  try {
    for (const name of QUEUE_NAMES) {
      const queue = new Queue(name, { connection, prefix });
      const counts = await queue.getJobCounts('waiting', 'prioritized', 'active');
      await queue.close();
      if ((counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.active ?? 0) > 0) return false;
    }
    return true;
  } finally {
    await connection.quit();
  }
}

async function until(test: () => Promise<boolean>, what: string, everyMs = 200): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (!(await test())) {
    if (Date.now() > deadline)
      throw new Error(`bench: ${what} did not happen within ${SETTLE_TIMEOUT_MS} ms`);
    await sleep(everyMs);
  }
}
