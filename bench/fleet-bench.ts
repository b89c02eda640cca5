// A fleet in one process (`npm run bench -- fleet`): N mappings of local bare repositories (a few
// mappings per repository, each its own folder) against the local service, run by one `docsync
// start` on a private redis-server. It prints how long the first imports of all of them took, then
// lets the fleet idle (nothing changes) and measures over a window: the CPU of docsync and its git
// processes as % of a core; the floor measured in the same run by a process of the bench's own
// (bench/fleet-floor.ts: one `git ls-remote` of each repository and one change request list per
// mapping per interval, evenly spread) and the ratio; the polls' spread (the busiest second's
// git polls over the average second's); Redis memory per mapping (used_memory after the window
// less before docsync started, over N); and the service calls per mapping per hour while idle.
// Then, the fleet still idling, it pushes a commit to one mapping's repository DOCSYNC_FLEET_PUSHES
// times (20), DOCSYNC_FLEET_PUSH_GAP apart (2s), each followed by its signed push webhook, and
// times webhook -> the import request reaching the service (seen by a pass-through proxy,
// bench/request-clock.ts, which every call goes through alike); the same against a one-mapping
// docsync started afterwards on the same Redis and service is the baseline.
// DOCSYNC_FLEET_MAPPINGS (300), DOCSYNC_FLEET_POLL (1m), DOCSYNC_FLEET_PER_REPO (3) and
// DOCSYNC_FLEET_IDLE_SECONDS (120) size it: 1000 mappings with `DOCSYNC_FLEET_MAPPINGS=1000
// DOCSYNC_FLEET_POLL=5m DOCSYNC_FLEET_IDLE_SECONDS=600`. It measures and prints; it never fails.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { durationMs } from '../src/config/duration.js';
import { PACKAGE_ROOT } from '../src/package-info.js';
import { RedisMappingStateStore } from '../src/state/redis-mapping-state-store.js';
import { type BenchRepo, createBenchRepo } from './bench-git-repo.js';
import { startBenchRedis } from './bench-redis.js';
import { queuesIdle, until as untilWithin } from './bench-settle.js';
import { startDocsync } from './docsync-child.js';
import { figure } from './figure-table.js';
import type { FloorInput, FloorOutput } from './fleet-floor.js';
import { latencyFigures } from './latency-figures.js';
import { processTreeCpuSeconds } from './process-tree-cpu.js';
import { type PushSampling, pushLatencies } from './push-latencies.js';
import { startRequestClock } from './request-clock.js';
import { type ServiceProcess, startServiceProcess } from './service-process.js';
import { report } from './stats.js';

const MAPPINGS = Number(process.env.DOCSYNC_FLEET_MAPPINGS ?? 300);
const POLL = process.env.DOCSYNC_FLEET_POLL ?? '1m';
const PER_REPO = Number(process.env.DOCSYNC_FLEET_PER_REPO ?? 3);
const IDLE_SECONDS = Number(process.env.DOCSYNC_FLEET_IDLE_SECONDS ?? 120);
const PUSHES = Number(process.env.DOCSYNC_FLEET_PUSHES ?? 20);
const PUSH_GAP = process.env.DOCSYNC_FLEET_PUSH_GAP ?? '2s';
const TOKEN = 'bench-admin-token';
const HOOK_SECRET = 'bench-hook-secret-0123456789';
const PREFIX = 'fleet';
const BASELINE_PREFIX = 'fleet-baseline';
/** The targets at 300 mappings polled every minute. */
const TARGET_CORE_PERCENT = 10;
const TARGET_FLOOR_RATIO = 1.5;
const TARGET_SPREAD = 3;
/** Push p99 with the fleet idling <= this many times the one-mapping docsync's, plus the slack. */
const TARGET_PUSH_RATIO = 2;
const TARGET_PUSH_SLACK_MS = 200;
const SETTLE_TIMEOUT_MS = 600_000;

export async function fleetBench(): Promise<void> {
  const intervalMs = parseDuration(POLL);
  const dir = await mkdtemp(join(tmpdir(), 'docsync-bench-fleet-'));
  await mkdir(join(dir, 'redis'));
  const redis = await startBenchRedis(join(dir, 'redis'));
  const service = await startServiceProcess(TOKEN);
  const clock = await startRequestClock(service.baseUrl);
  const client = new Redis(redis.url, { maxRetriesPerRequest: null });
  let docsync: ReturnType<typeof startDocsync> | undefined;
  try {
    const setupStarted = performance.now();
    const benchRepos: BenchRepo[] = [];
    for (let r = 0; r * PER_REPO < MAPPINGS; r += 1) {
      const files: Record<string, string> = {};
      for (let k = 0; k < PER_REPO; k += 1) files[`docs-${k}/README.md`] = `# Docs ${r}.${k}\n\nPages.\n`;
      benchRepos.push(await createBenchRepo(join(dir, `repo-${r}`), files));
    }
    const repos = benchRepos.map((repo) => repo.remote);
    const spaces: string[] = [];
    for (let i = 0; i < MAPPINGS; i += 1) spaces.push(await service.createSpace(`Space ${i}`));
    const mappings = spaces
      .map(
        (space, i) =>
          `  - { name: m${i}, space: ${space}, git: { repo: ${repos[Math.floor(i / PER_REPO)]}, branch: main, dir: docs-${i % PER_REPO}, poll: ${POLL} }, changeRequest: { poll: ${POLL} } }`,
      )
      .join('\n');
    const config = join(dir, 'docsync.yaml');
    await writeFile(config, daemonConfig(join(dir, 'data'), redis.url, PREFIX, clock.baseUrl, mappings));
    report('setup (repositories, spaces)', {
      mappings: MAPPINGS,
      repositories: repos.length,
      poll: POLL,
      seconds: (performance.now() - setupStarted) / 1000,
    });

    const memoryBefore = await usedMemory(client);
    const started = performance.now();
    docsync = startDocsync(config);
    const address = String((await docsync.waitForLine('docsync started', 120_000)).http);
    const state = new RedisMappingStateStore(client, PREFIX);
    await until(async () => (await importedCount(state)) === MAPPINGS, 'the first import of every mapping');
    const firstImportsSeconds = (performance.now() - started) / 1000;
    report('first imports', { mappings: MAPPINGS, seconds: firstImportsSeconds });

    // What follows a first import (the change request poll that first sees it, its link check) is
    // done before the window: one interval, then every queue idle.
    await sleep(intervalMs);
    await until(() => idle(client), 'the queues idle after the first imports');

    await service.resetRequests();
    const windowStart = Date.now();
    const cpuBefore = await processTreeCpuSeconds(docsync.pid);
    await sleep(IDLE_SECONDS * 1000);
    const cpuSeconds = (await processTreeCpuSeconds(docsync.pid)) - cpuBefore;
    const windowEnd = Date.now();
    const calls = await service.requests();
    const memoryAfter = await usedMemory(client);
    const spread = await pollSpread(client, windowStart, windowEnd);
    const pushing = { secret: HOOK_SECRET, clock, pushes: PUSHES, gapMs: parseDuration(PUSH_GAP, 0) };
    const fleetPushes = await pushLatencies({
      ...pushing,
      address,
      repo: benchRepos[0] as BenchRepo,
      file: 'docs-0/README.md',
      space: spaces[0] ?? '',
    });
    await docsync.stop();
    docsync = undefined;
    const basePushes = await baselinePushes(dir, redis.url, service, client, pushing);

    const windowSeconds = (windowEnd - windowStart) / 1000;
    const floor = await runFloor({
      repos,
      spaces,
      baseUrl: service.baseUrl,
      token: TOKEN,
      intervalMs,
      seconds: Math.min(IDLE_SECONDS, Math.max(60, (2 * intervalMs) / 1000)),
    });
    const corePercent = (100 * cpuSeconds) / windowSeconds;
    const floorPercent = (100 * floor.cpuSeconds) / floor.seconds;
    const memoryPerMappingKb = (memoryAfter - memoryBefore) / MAPPINGS / 1024;
    const callsPerMappingHour = calls.total / MAPPINGS / (windowSeconds / 3600);
    report('idle fleet', {
      windowSeconds,
      corePercent,
      floorCorePercent: floorPercent,
      ratioToFloor: corePercent / floorPercent,
      cpuMsPerMappingPoll: (1000 * cpuSeconds) / (MAPPINGS * (windowSeconds / (intervalMs / 1000))),
      pollsInWindow: spread.polls,
      busiestSecond: spread.busiest,
      averageSecond: spread.average,
      redisKbPerMapping: memoryPerMappingKb,
      serviceCallsPerMappingHour: callsPerMappingHour,
      floorLooks: floor.looks,
      floorLists: floor.lists,
    });
    report('service calls while idle', calls.counts);
    const fleetPush = latencyFigures(fleetPushes);
    const basePush = latencyFigures(basePushes);
    const pushLimit = TARGET_PUSH_RATIO * Number(basePush.p99) + TARGET_PUSH_SLACK_MS;
    report('push webhook -> import request, fleet idling (ms)', fleetPush);
    report('push webhook -> import request, one mapping (ms)', basePush);
    report('push p99, fleet over one mapping', {
      ratio: Number(fleetPush.p99) / Number(basePush.p99),
      limitMs: pushLimit,
      met: Number(fleetPush.p99) <= pushLimit ? 'yes' : 'no',
    });
    const size = `${MAPPINGS} mappings, ${POLL} polls, ${PER_REPO} per repository`;
    figure({ name: `fleet first imports, ${size} (s)`, docsync: firstImportsSeconds });
    figure({
      name: `fleet idle CPU, ${size} (% of a core, git included)`,
      docsync: corePercent,
      baseline: `floor ${floorPercent.toFixed(2)}`,
      ratio: corePercent / floorPercent,
      target: `<= ${TARGET_CORE_PERCENT} % and <= ${TARGET_FLOOR_RATIO}x floor`,
      met: corePercent <= TARGET_CORE_PERCENT && corePercent / floorPercent <= TARGET_FLOOR_RATIO,
    });
    figure({
      name: `fleet git polls' busiest second over the average, ${size}`,
      docsync: spread.average > 0 ? spread.busiest / spread.average : Number.NaN,
      target: `<= ${TARGET_SPREAD}`,
      met: spread.average > 0 && spread.busiest / spread.average <= TARGET_SPREAD,
    });
    figure({ name: `fleet Redis memory per mapping, ${size} (KB)`, docsync: memoryPerMappingKb });
    figure({ name: `fleet service calls per mapping per hour idle, ${size}`, docsync: callsPerMappingHour });
    figure({
      name: `push webhook -> import request, fleet idling, ${size} (ms)`,
      docsync: `p50 ${fleetPush.p50}, p95 ${fleetPush.p95}, p99 ${fleetPush.p99}`,
      baseline: `one mapping: p50 ${basePush.p50}, p95 ${basePush.p95}, p99 ${basePush.p99}`,
      ratio: Number(fleetPush.p99) / Number(basePush.p99),
      target: `p99 <= ${TARGET_PUSH_RATIO}x one mapping's + ${TARGET_PUSH_SLACK_MS} ms`,
      met: Number(fleetPush.p99) <= pushLimit,
    });
  } finally {
    await docsync?.stop();
    client.disconnect();
    await clock.stop();
    await service.stop();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function parseDuration(text: string, min = 1000): number {
  const parsed = durationMs({ min, max: 86_400_000 }).safeParse(text);
  if (!parsed.success) throw new Error(`DOCSYNC_FLEET_POLL or _PUSH_GAP: not a duration: ${text}`);
  return parsed.data;
}

/** `docsync start`'s configuration: the fleet's or the baseline's, the service through the clock. */
function daemonConfig(
  dataDir: string,
  redisUrl: string,
  prefix: string,
  baseUrl: string,
  mappings: string,
): string {
  return `dataDir: ${dataDir}\nredis: { url: "${redisUrl}", prefix: ${prefix} }\nservice: { baseUrl: "${baseUrl}", token: ${TOKEN} }\nhttp: { listen: 127.0.0.1:0 }\nhooks: { secret: ${HOOK_SECRET} }\nlog: { level: info }\nmappings:\n${mappings}\n`;
}

/**
 * The baseline: a one-mapping docsync (its own repository, space and Redis prefix, polled as the
 * fleet is), once its first import and what follows it are done, sampled as the fleet was.
 */
async function baselinePushes(
  dir: string,
  redisUrl: string,
  service: ServiceProcess,
  client: Redis,
  pushing: Pick<PushSampling, 'secret' | 'clock' | 'pushes' | 'gapMs'>,
): Promise<number[]> {
  const repo = await createBenchRepo(join(dir, 'baseline'), { 'docs-0/README.md': '# Baseline\n\nPages.\n' });
  const space = await service.createSpace('Baseline');
  const config = join(dir, 'baseline.yaml');
  const mapping = `  - { name: baseline, space: ${space}, git: { repo: ${repo.remote}, branch: main, dir: docs-0, poll: ${POLL} }, changeRequest: { poll: ${POLL} } }`;
  await writeFile(
    config,
    daemonConfig(join(dir, 'baseline-data'), redisUrl, BASELINE_PREFIX, pushing.clock.baseUrl, mapping),
  );
  const docsync = startDocsync(config);
  try {
    const address = String((await docsync.waitForLine('docsync started', 120_000)).http);
    const state = new RedisMappingStateStore(client, BASELINE_PREFIX);
    await until(
      async () => (await state.get('baseline')).lastImportedSha !== undefined,
      'the baseline import',
    );
    await until(() => idle(client, BASELINE_PREFIX), 'the queues idle after the baseline import');
    return await pushLatencies({ ...pushing, address, repo, file: 'docs-0/README.md', space });
  } finally {
    await docsync.stop();
  }
}

async function usedMemory(client: Redis): Promise<number> {
  const info = await client.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN);
}

async function importedCount(state: RedisMappingStateStore): Promise<number> {
  let imported = 0;
  for (let i = 0; i < MAPPINGS; i += 1)
    if ((await state.get(`m${i}`)).lastImportedSha !== undefined) imported += 1;
  return imported;
}

/**
 * The git polls that started in the window, from the import queue's event stream (its entries'
 * ids are their times): how many, the most in one second and the average second.
 */
async function pollSpread(
  client: Redis,
  from: number,
  to: number,
): Promise<{ polls: number; busiest: number; average: number }> {
  const entries = await client.xrange(`${PREFIX}:import:events`, String(from), String(to));
  const perSecond = new Map<number, number>();
  let polls = 0;
  for (const [id, fields] of entries) {
    const field = (name: string) => fields[fields.indexOf(name) + 1];
    if (field('event') !== 'active' || !String(field('jobId')).includes('poll-git/')) continue;
    const second = Math.floor(Number(id.split('-')[0]) / 1000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    polls += 1;
  }
  const seconds = Math.max(1, (to - from) / 1000);
  return { polls, busiest: Math.max(0, ...perSecond.values()), average: polls / seconds };
}

/** The floor's process (bench/fleet-floor.ts), run to its end: what it measured. */
async function runFloor(input: FloorInput): Promise<FloorOutput> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(PACKAGE_ROOT, 'bench', 'fleet-floor.ts')], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, DOCSYNC_FLEET_FLOOR: JSON.stringify(input) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`bench: the floor's process exited with ${code}`);
  return JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as FloorOutput;
}

const until = (test: () => Promise<boolean>, what: string) => untilWithin(test, what, SETTLE_TIMEOUT_MS);
const idle = (client: Redis, prefix = PREFIX) => queuesIdle(client, prefix);
