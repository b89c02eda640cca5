// The faults part of the crash soak: one fixed workload (no kills) run twice on fresh worlds, first
// against a well-behaved local service, then with 30 % of its answers an injected 429 (Retry-After
// 1 s) or 503, as `docsync emulator --faults 429=0.15,5xx=0.15,retry-after=1,seed=7` gives them. It
// counts the calls docsync made until the run settled, and compares the end states.
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type FaultConfig, parseFaultSpec } from '../src/emulator/faults.js';
import { benchQueues, endState, verdict } from './crash-checks.js';
import { waitSettled } from './crash-settle.js';
import { createCrashWorld } from './crash-world.js';
import { startDocsync } from './docsync-child.js';
import { figure } from './figure-table.js';
import { report } from './stats.js';

export const FAULT_SPEC = '429=0.15,5xx=0.15,retry-after=1,seed=7';
const STEPS = 6;
const STEP_MS = 2_000;
const START_TIMEOUT_MS = 60_000;
const SETTLE_TIMEOUT_MS = 120_000;
// Calls are counted from the workload's first step to this long after its last step in both runs
// (or to settling, when later): polls run on a clock, so counting the same span compares the work
// and the retries, not how long each run happened to last. The warm-up before the workload (the
// first import, the first upload) takes longer under faults, and its polls are counted apart.
const COUNT_WINDOW_MS = 40_000;

interface FixedRun {
  /** In the counted span: the workload's first step to COUNT_WINDOW_MS after its last (or settled). */
  calls: number;
  /** From docsync's start, the warm-up included. */
  totalCalls: number;
  warmUpMs: number;
  faulted: number;
  byRoute: Record<string, number>;
  /** The span its calls were counted over. */
  countedMs: number;
  settledMs?: number;
  missing: string[];
  state: Record<string, string>;
  lost: number;
  /** Service edits the space no longer holds at the end. */
  undone: number;
  duplicates: number;
  logFile: string;
}

export async function faultComparison(dir: string, redisUrl: string): Promise<{ calmSettledMs?: number }> {
  const calm = await fixedRun(join(dir, 'calm'), redisUrl, 'calm');
  const faulty = await fixedRun(join(dir, 'faults'), redisUrl, 'faults', parseFaultSpec(FAULT_SPEC));
  for (const [label, run] of [
    ['fixed workload, fault-free (baseline)', calm],
    [`fixed workload, faults ${FAULT_SPEC}`, faulty],
  ] as const) {
    report(label, {
      docsyncCalls: run.calls,
      withWarmUp: run.totalCalls,
      warmUpMs: run.warmUpMs,
      faulted: run.faulted,
      callsPerSecond: run.calls / (run.countedMs / 1000),
      settledMs: run.settledMs ?? 'not settled',
      lost: run.lost,
      undoneInTheSpace: run.undone,
      duplicates: run.duplicates,
      log: run.logFile,
    });
    for (const missing of run.missing) process.stdout.write(`  still missing: ${missing}\n`);
  }
  for (const line of routeDifferences(calm.byRoute, faulty.byRoute)) process.stdout.write(`  ${line}\n`);
  const faultRate = (faults: FaultConfig) => faults.rate429 + faults.rate5xx;
  report('calls with faults / fault-free (target <= 1.5)', {
    ratio: faulty.calls / calm.calls,
    withWarmUp: faulty.totalCalls / calm.totalCalls,
    // Were each faulted answer asked again at once: a poll that failed is not, its next tick reads
    // anew, so the same span can cost fewer than this.
    eachFaultRetried: 1 / (1 - faultRate(parseFaultSpec(FAULT_SPEC))),
  });
  figure({
    name: 'service calls, fixed workload with 30 % 429/503',
    docsync: faulty.calls,
    baseline: `fault-free ${calm.calls}`,
    ratio: faulty.calls / calm.calls,
    target: '<= 1.5',
    met: faulty.calls / calm.calls <= 1.5,
  });
  const differs = Object.keys(calm.state).filter((part) => calm.state[part] !== faulty.state[part]);
  report('same end state with and without faults', {
    same: differs.length === 0 ? 'yes' : 'no',
    ...(differs.length === 0 ? {} : { differs: differs.join(', ') }),
  });
  return calm.settledMs === undefined ? {} : { calmSettledMs: calm.settledMs };
}

async function fixedRun(
  dir: string,
  redisUrl: string,
  label: string,
  faults?: FaultConfig,
): Promise<FixedRun> {
  await mkdir(dir, { recursive: true });
  const world = await createCrashWorld({ dir, redisUrl, label, ...(faults === undefined ? {} : { faults }) });
  const queues = benchQueues(redisUrl, world.prefix);
  const docsync = startDocsync(world.configPath);
  const logFile = join(tmpdir(), `docsync-crash-${label}.ndjson`);
  try {
    await docsync.waitForLine('docsync started', START_TIMEOUT_MS);
    const warm = await waitSettled(world, queues, SETTLE_TIMEOUT_MS);
    if (warm.at === undefined)
      throw new Error(`bench: the ${label} warm-up did not settle: ${warm.missing.join('; ')}`);
    const workStart = Date.now();
    const before = { ...world.calls, byRoute: { ...world.calls.byRoute } };
    for (let step = 0; step < STEPS; step += 1) {
      await world.commit(step % 2 === 0 ? 'both' : 'oneway');
      if (step === 1 || step === 4) world.editInService();
      if (step === 2 || step === 5) await world.changeSpec();
      await world.approveOpen();
      await sleep(STEP_MS);
    }
    const from = Date.now();
    const settled = await waitSettled(world, queues, SETTLE_TIMEOUT_MS);
    const windowLeft = from + COUNT_WINDOW_MS - Date.now();
    if (windowLeft > 0) await sleep(windowLeft);
    const calls = { ...world.calls, byRoute: { ...world.calls.byRoute } };
    const countedMs = Date.now() - workStart;
    const found = await verdict(world, docsync.lines);
    return {
      calls: calls.docsync - before.docsync,
      totalCalls: calls.docsync,
      warmUpMs: workStart - docsync.startedAt,
      faulted: calls.faulted - before.faulted,
      byRoute: Object.fromEntries(
        Object.entries(calls.byRoute).map(([route, count]) => [route, count - (before.byRoute[route] ?? 0)]),
      ),
      countedMs,
      ...(settled.at === undefined ? {} : { settledMs: settled.at - from }),
      missing: settled.missing,
      state: await endState(world),
      lost: found.lostCommits.length + found.lostEdits.length,
      undone: found.goneFromSpace.length,
      duplicates:
        found.duplicateChangeRequests.both +
        found.duplicateChangeRequests.oneway +
        found.duplicateMerges +
        found.duplicateSpecVersions,
      logFile,
    };
  } finally {
    await docsync.stop();
    await writeFile(logFile, docsync.lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    await queues.close();
    await world.close();
  }
}

/** The routes called more often with faults than without, most extra calls first. */
function routeDifferences(calm: Record<string, number>, faulty: Record<string, number>): string[] {
  return Object.keys({ ...calm, ...faulty })
    .map((route) => ({ route, calm: calm[route] ?? 0, faulty: faulty[route] ?? 0 }))
    .filter((row) => row.faulty > row.calm)
    .sort((a, b) => b.faulty - b.calm - (a.faulty - a.calm))
    .slice(0, 8)
    .map((row) => `${row.route}: ${row.calm} fault-free, ${row.faulty} with faults`);
}
