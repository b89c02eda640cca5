// A burst of pushes on a fleet shared by several processes (`npm run bench -- fleet-burst`, issue
// 43): N mappings (1000) of local bare repositories (three mappings a repository, each its own
// folder) against the local service in a process of its own, on a private redis-server, polled
// rarely (DOCSYNC_BURST_POLL, 30m) so that the burst is driven by the push webhooks alone. One
// `docsync start` imports every mapping first; then a signed push webhook for each repository's
// head puts every repository on the safety poll (hooks.safetyPoll, 1h), so that no scheduled poll
// takes a commit of a burst before its webhook does.
// A: one process. A commit into the folder of DOCSYNC_BURST_PUSHES (300) distinct mappings, one a
//    repository, pushed first; then every push's webhook at once, and the time from the first
//    webhook to every one of those mappings' lastImportedSha at its commit.
// B: three processes on the same Redis and prefix (two more started beside A's), the same on other
//    mappings, the webhooks round-robin over the three; the ratio A/B.
// C: the three restarted with `service.rateLimit: { requests: 120, per: 1m }`, a burst of
//    DOCSYNC_BURST_LIMITED_PUSHES (60) on yet other mappings: every call reaching the service from
//    the three starts on is timed by the request clock (bench/request-clock.ts), and the busiest
//    rolling 60 s window's count is printed against 120, with whether the burst's imports and the
//    processes' startup checks (which take the budget too) completed.
// DOCSYNC_BURST_MAPPINGS (1000), DOCSYNC_BURST_PUSHES (300), DOCSYNC_BURST_PER_REPO (3),
// DOCSYNC_BURST_LIMITED_PUSHES (60), DOCSYNC_BURST_POLL (30m) size it; C waits at most
// DOCSYNC_BURST_CHECKS_WAIT_SECONDS (120) after its imports for the startup checks to finish.
// It measures and prints; it never fails on a figure.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { RedisMappingStateStore } from '../src/state/redis-mapping-state-store.js';
import { type BenchRepo, createBenchRepo } from './bench-git-repo.js';
import { startBenchRedis } from './bench-redis.js';
import { queuesIdle, until as untilWithin } from './bench-settle.js';
import { type DocsyncChild, startDocsync } from './docsync-child.js';
import { figure } from './figure-table.js';
import { processTreeCpuSeconds } from './process-tree-cpu.js';
import { type RequestClock, startRequestClock } from './request-clock.js';
import { sendPushHook } from './send-push-hook.js';
import { startServiceProcess } from './service-process.js';
import { report } from './stats.js';

const MAPPINGS = Number(process.env.DOCSYNC_BURST_MAPPINGS ?? 1000);
const PUSHES = Number(process.env.DOCSYNC_BURST_PUSHES ?? 300);
const PER_REPO = Number(process.env.DOCSYNC_BURST_PER_REPO ?? 3);
const LIMITED_PUSHES = Number(process.env.DOCSYNC_BURST_LIMITED_PUSHES ?? 60);
const POLL = process.env.DOCSYNC_BURST_POLL ?? '30m';
const PROCESSES = 3;
const RATE_REQUESTS = 120;
const RATE_WINDOW_MS = 60_000;
const TOKEN = 'bench-admin-token';
const HOOK_SECRET = 'bench-hook-secret-0123456789';
const PREFIX = 'burst';
/** The target: three processes import a burst at least this many times as fast as one. */
const TARGET_SPEEDUP = 2.5;
/** Webhooks in flight at once while a burst is sent. */
const HOOKS_AT_ONCE = 8;
const SETTLE_TIMEOUT_MS = 1_200_000;
const HOOK_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface Burst {
  /** The mappings' names, each with the sha its commit made. */
  pushed: { name: string; repo: BenchRepo; sha: string }[];
}

interface BurstResult {
  seconds: number;
  importsPerSecond: number;
  /** Mappings already at their commit before its webhook was sent (a poll took it). */
  early: number;
  done: boolean;
  /** Cores used meanwhile: by the docsync processes (git included), by everything the bench started, by the machine. */
  docsyncCores: number;
  benchCores: number;
  machineCores: number;
}

export async function fleetBurstBench(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-bench-burst-'));
  await mkdir(join(dir, 'redis'));
  const redis = await startBenchRedis(join(dir, 'redis'));
  const service = await startServiceProcess(TOKEN);
  const clock = await startRequestClock(service.baseUrl);
  const arrivals = recordArrivals(clock);
  const client = new Redis(redis.url, { maxRetriesPerRequest: null });
  const state = new RedisMappingStateStore(client, PREFIX);
  const running: DocsyncChild[] = [];
  const start = async (
    index: number,
    rateLimit: boolean,
  ): Promise<{ child: DocsyncChild; address: string }> => {
    const config = join(dir, `docsync-${index}${rateLimit ? '-limited' : ''}.yaml`);
    await writeFile(
      config,
      daemonConfig(join(dir, `data-${index}`), redis.url, clock.baseUrl, mappings, rateLimit),
    );
    const child = startDocsync(config);
    running.push(child);
    const address = String((await child.waitForLine('docsync started', 120_000)).http);
    return { child, address };
  };
  const stopAll = async () => {
    await Promise.all(running.map((child) => child.stop()));
    running.length = 0;
  };
  let mappings = '';
  try {
    const setupStarted = performance.now();
    const repos: BenchRepo[] = [];
    for (let r = 0; r * PER_REPO < MAPPINGS; r += 1) {
      const files: Record<string, string> = {};
      for (let k = 0; k < PER_REPO; k += 1) files[`docs-${k}/README.md`] = `# Docs ${r}.${k}\n\nPages.\n`;
      repos.push(await createBenchRepo(join(dir, `repo-${r}`), files));
    }
    const spaces: string[] = [];
    for (let i = 0; i < MAPPINGS; i += 1) spaces.push(await service.createSpace(`Space ${i}`));
    mappings = spaces
      .map(
        (space, i) =>
          `  - { name: m${i}, space: ${space}, git: { repo: ${repos[Math.floor(i / PER_REPO)]?.remote}, branch: main, dir: docs-${i % PER_REPO}, poll: ${POLL} }, changeRequest: { poll: ${POLL} } }`,
      )
      .join('\n');
    report('setup (repositories, spaces)', {
      mappings: MAPPINGS,
      repositories: repos.length,
      poll: POLL,
      seconds: (performance.now() - setupStarted) / 1000,
    });

    // One process imports the fleet first, so that the bursts measure the pushes alone.
    const first = await start(0, false);
    const firstStarted = performance.now();
    await until(async () => (await importedCount(state)) === MAPPINGS, 'the first import of every mapping');
    report('first imports, one process', {
      mappings: MAPPINGS,
      seconds: (performance.now() - firstStarted) / 1000,
    });
    await until(async () => checksSettled(first.child), "the first process's startup checks");
    // A webhook for every repository's head: from then on its scheduled poll is the safety net.
    await sendAll(
      await Promise.all(
        repos.map(async (repo) => ({ repo, sha: (await repo.remoteGit('rev-parse', 'main')).trim() })),
      ),
      [first.address],
    );
    await until(() => idle(client), 'the queues idle after the first imports');

    // A: one process.
    const burstA = await pushBurst(repos, 0, PUSHES, 'A');
    await service.resetRequests();
    const a = await runBurst(burstA, [first.address], state, [first.child.pid]);
    const callsA = await service.requests();
    report('A: burst, one process', {
      ...shown(a),
      pushes: burstA.pushed.length,
      callsPerImport: callsA.total / burstA.pushed.length,
    });
    report('A: service calls', callsA.counts);

    // B: two more processes beside the first, on the same Redis and prefix.
    const others = [await start(1, false), await start(2, false)];
    // Started with the first's configuration, they skip the checks it ran (src/daemon/claim-startup-checks.ts).
    for (const other of others)
      await until(async () => checksSettled(other.child), 'the startup checks of two more');
    await until(() => idle(client), 'the queues idle after two more processes started');
    const burstB = await pushBurst(repos, 1, PUSHES, 'B');
    const b = await runBurst(
      burstB,
      [first.address, ...others.map((other) => other.address)],
      state,
      running.map((child) => child.pid),
    );
    report('B: burst, three processes', { ...shown(b), pushes: burstB.pushed.length });
    // Which process ran the imports (A's and B's together): `job completed` lines of import-content.
    const importsByProcess = running.map(
      (child) =>
        child.lines.filter((line) => line.msg === 'job completed' && line.name === 'import-content').length,
    );
    report(
      'imports completed by process (A and B)',
      Object.fromEntries(importsByProcess.map((n, i) => [`p${i}`, n])),
    );

    // C: the three restarted with one budget of 120 calls a minute; the burst's commits are pushed
    // while they are down, and every call from their start on is timed.
    await stopAll();
    await until(() => idle(client), 'the queues idle after the three stopped');
    const burstC = await pushBurst(repos, 2, LIMITED_PUSHES, 'C');
    const cStarted = Date.now();
    const limited: { child: DocsyncChild; address: string }[] = [];
    for (let i = 0; i < PROCESSES; i += 1) limited.push(await start(i, true));
    const c = await runBurst(
      burstC,
      limited.map((process) => process.address),
      state,
      limited.map((process) => process.child.pid),
    );
    report('C: burst imports, three processes, 120/min', { ...shown(c), pushes: burstC.pushed.length });
    // The startup checks (a look at each space from each process) take the budget too.
    const checksDone = async () => limited.filter((process) => checksSettled(process.child)).length;
    const checksDeadline = Date.now() + Number(process.env.DOCSYNC_BURST_CHECKS_WAIT_SECONDS ?? 120) * 1000;
    let lastNote = Date.now();
    while ((await checksDone()) < PROCESSES && Date.now() < checksDeadline) {
      await sleep(1000);
      if (Date.now() - lastNote < 60_000) continue;
      lastNote = Date.now();
      const passed = limited.map(
        (process) => process.child.lines.filter((line) => line.msg?.startsWith('startup check ')).length,
      );
      report('C: startup checks so far', {
        seconds: (Date.now() - cStarted) / 1000,
        checkLines: passed.join('/'),
        callsSeen: arrivals.filter((at) => at >= cStarted).length,
      });
    }
    const cEnded = Date.now();
    const checks = await checksDone();
    const { count: busiest, from: busiestFrom } = busiestWindow(
      arrivals.filter((at) => at >= cStarted && at <= cEnded),
      RATE_WINDOW_MS,
    );
    report('C: calls at the service, 120/min', {
      callsSeen: arrivals.filter((at) => at >= cStarted && at <= cEnded).length,
      windowSeconds: (cEnded - cStarted) / 1000,
      busiestMinute: busiest,
      // When the busiest window opened, in seconds from the three's start: 0 is their startup.
      busiestFromSecond: (busiestFrom - cStarted) / 1000,
      startupChecksDone: `${checks}/${PROCESSES}`,
    });

    const size = `${MAPPINGS} mappings, ${PER_REPO} per repository`;
    figure({
      name: `burst of ${burstA.pushed.length} pushes, one process, ${size} (s)`,
      docsync: a.seconds,
      baseline: `${a.importsPerSecond.toFixed(2)} imports/s`,
    });
    figure({
      name: `burst of ${burstB.pushed.length} pushes, three processes, ${size} (s)`,
      docsync: b.seconds,
      baseline: `one process ${a.seconds.toFixed(2)} s`,
      ratio: a.seconds / b.seconds,
      target: `>= ${TARGET_SPEEDUP}x as fast`,
      met: a.done && b.done && a.seconds / b.seconds >= TARGET_SPEEDUP,
    });
    figure({
      name: `busiest 60 s at the service, three processes, rateLimit ${RATE_REQUESTS}/1m, burst of ${burstC.pushed.length}, ${size}`,
      docsync: busiest,
      baseline: `${((cEnded - cStarted) / 1000).toFixed(0)} s seen`,
      target: `<= ${RATE_REQUESTS}`,
      met: busiest <= RATE_REQUESTS,
    });
    figure({
      name: `all work completes, rateLimit ${RATE_REQUESTS}/1m (burst imports; startup checks)`,
      docsync: `${c.done ? 'imports done' : 'imports NOT done'} in ${c.seconds.toFixed(1)} s; checks ${checks}/${PROCESSES}`,
      target: 'all done',
      met: c.done && checks === PROCESSES,
    });
  } finally {
    await stopAll();
    client.disconnect();
    await clock.stop();
    await service.stop();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** `docsync start`'s configuration: every process the same but for its dataDir. */
function daemonConfig(
  dataDir: string,
  redisUrl: string,
  baseUrl: string,
  mappings: string,
  rateLimit: boolean,
): string {
  const limit = rateLimit ? `, rateLimit: { requests: ${RATE_REQUESTS}, per: 1m }` : '';
  return `dataDir: ${dataDir}\nredis: { url: "${redisUrl}", prefix: ${PREFIX} }\nservice: { baseUrl: "${baseUrl}", token: ${TOKEN}${limit} }\nhttp: { listen: 127.0.0.1:0 }\nhooks: { secret: ${HOOK_SECRET} }\nlog: { level: info }\nmappings:\n${mappings}\n`;
}

/**
 * A commit into one mapping's folder in each of `count` repositories: run `run` takes the mapping
 * (r + run) % PER_REPO of repository r, so that the runs touch different mappings.
 */
async function pushBurst(
  repos: readonly BenchRepo[],
  run: number,
  count: number,
  label: string,
): Promise<Burst> {
  const pushed: Burst['pushed'] = [];
  for (let r = 0; r < repos.length && pushed.length < count; r += 1) {
    const k = (r + run) % PER_REPO;
    const index = r * PER_REPO + k;
    const repo = repos[r];
    if (index >= MAPPINGS || repo === undefined) continue;
    const sha = await repo.appendAndPush([`docs-${k}/README.md`], `\nBurst ${label}.\n`, `Burst ${label}`);
    pushed.push({ name: `m${index}`, repo, sha });
  }
  return { pushed };
}

/** Sends every push's webhook (round-robin over `addresses`), then waits for every import. */
async function runBurst(
  burst: Burst,
  addresses: readonly string[],
  state: RedisMappingStateStore,
  pids: readonly number[],
): Promise<BurstResult> {
  const early = burst.pushed.length - (await pending(burst, state)).length;
  const cpu = async () => ({
    docsync: (await Promise.all(pids.map((pid) => processTreeCpuSeconds(pid)))).reduce((a, b) => a + b, 0),
    bench: await processTreeCpuSeconds(process.pid),
    machine: await machineBusySeconds(),
  });
  const cpuBefore = await cpu();
  const started = performance.now();
  await sendAll(burst.pushed, addresses);
  let done = true;
  try {
    await until(async () => (await pending(burst, state)).length === 0, 'every import of the burst');
  } catch (error) {
    done = false;
    process.stderr.write(`${(error as Error).message}: ${(await pending(burst, state)).length} left\n`);
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = await cpu();
  return {
    seconds,
    importsPerSecond: burst.pushed.length / seconds,
    early,
    done,
    docsyncCores: (cpuAfter.docsync - cpuBefore.docsync) / seconds,
    benchCores: (cpuAfter.bench - cpuBefore.bench) / seconds,
    machineCores: (cpuAfter.machine - cpuBefore.machine) / seconds,
  };
}

/** CPU seconds every core of the machine has been busy since boot (/proc/stat: all but idle and iowait). */
async function machineBusySeconds(): Promise<number> {
  const fields = ((await readFile('/proc/stat', 'utf8')).split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return (user + nice + system + irq + softirq + steal) / 100;
}

/** A result as report() prints it. */
function shown(result: BurstResult): Record<string, number | string> {
  return { ...result, done: result.done ? 'yes' : 'no' };
}

async function pending(burst: Burst, state: RedisMappingStateStore): Promise<string[]> {
  const left: string[] = [];
  for (const { name, sha } of burst.pushed)
    if ((await state.get(name)).lastImportedSha !== sha) left.push(name);
  return left;
}

/** A signed push webhook for each, HOOKS_AT_ONCE in flight, the i-th to addresses[i % n]. */
async function sendAll(
  pushes: readonly { repo: BenchRepo; sha: string }[],
  addresses: readonly string[],
): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < pushes.length; i = next++) {
      const push = pushes[i];
      if (push === undefined) continue;
      const status = await sendPushHook(
        addresses[i % addresses.length] ?? '',
        push.repo.remote,
        push.sha,
        HOOK_SECRET,
      );
      if (status !== 202) throw new Error(`bench: the push webhook answered ${status}`);
    }
  };
  await Promise.all(Array.from({ length: HOOKS_AT_ONCE }, worker));
}

/**
 * The arrival time of every request at the service through the clock: its `next` is asked, for
 * every method, for a request its test never accepts, and the test notes each call it sees.
 */
function recordArrivals(clock: RequestClock): number[] {
  const times: number[] = [];
  for (const method of HOOK_METHODS)
    void clock.next(method, () => {
      times.push(Date.now());
      return false;
    });
  return times;
}

/** The most arrivals in any window of `windowMs` (two pointers over the sorted times). */
function busiestWindow(times: readonly number[], windowMs: number): { count: number; from: number } {
  const sorted = [...times].sort((a, b) => a - b);
  let best = { count: 0, from: Number.NaN };
  let from = 0;
  for (let to = 0; to < sorted.length; to += 1) {
    while ((sorted[to] ?? 0) - (sorted[from] ?? 0) >= windowMs) from += 1;
    if (to - from + 1 > best.count) best = { count: to - from + 1, from: sorted[from] ?? Number.NaN };
  }
  return best;
}

async function importedCount(state: RedisMappingStateStore): Promise<number> {
  let imported = 0;
  for (let i = 0; i < MAPPINGS; i += 1)
    if ((await state.get(`m${i}`)).lastImportedSha !== undefined) imported += 1;
  return imported;
}

const until = (test: () => Promise<boolean>, what: string) => untilWithin(test, what, SETTLE_TIMEOUT_MS);
const idle = (client: Redis, prefix = PREFIX) => queuesIdle(client, prefix);

/** A process's startup checks ran, or were skipped because another with its configuration ran them. */
function checksSettled(child: DocsyncChild): boolean {
  return child.lines.some(
    (line) => line.msg === 'startup checks done' || String(line.msg).startsWith('startup checks skipped'),
  );
}
