// The kill -9 part of the crash soak: 20 cycles of the mixed workload (commits to both
// repositories, approvals, edits in the service, spec changes), each ended by SIGKILL of docsync at
// a seeded random moment and a restart at once. The jobs active at each kill are read from Redis
// (BullMQ's getActive) and followed in the next process's log; after the last restart the run must
// settle, and what was lost or done twice is counted.
import { setTimeout as sleep } from 'node:timers/promises';
import { type ActiveJob, type BenchQueues, verdict } from './crash-checks.js';
import { waitSettled } from './crash-settle.js';
import type { CrashWorld } from './crash-world.js';
import { type DocsyncChild, type DocsyncLine, startDocsync } from './docsync-child.js';
import { latencyFigures } from './latency-figures.js';
import { report } from './stats.js';

const CYCLES = 20;
/** The kill falls this long at most after a cycle's moves begin. */
const KILL_WINDOW_MS = 6_000;
const START_TIMEOUT_MS = 60_000;
export const SETTLE_TIMEOUT_MS = 120_000;
const WARM_UP_TIMEOUT_MS = 120_000;
/** The runner's one outcome line of a run (src/queue/job-runner.ts). */
const RUN_ENDS = new Set([
  'job completed',
  'job failed, will retry',
  'job failed permanently',
  'job failed, attempts used up',
  'service rate limit: queue paused',
]);

interface Kill {
  cycle: number;
  killAfterMs: number;
  stranded: ActiveJob[];
  restartAt: number;
  /** The process started right after the kill. */
  next: DocsyncChild;
}

/**
 * `children` gets every docsync process started, the running one last, for the caller to end
 * whatever happens; resolves with the time from the last restart to settled, when it settled.
 */
export async function crashSoak(
  world: CrashWorld,
  queues: BenchQueues,
  random: () => number,
  children: DocsyncChild[],
): Promise<{ settledMs?: number }> {
  children.push(startDocsync(world.configPath));
  const current = () => children.at(-1) as DocsyncChild;
  const lines = () => children.flatMap((child) => child.lines);
  await current().waitForLine('docsync started', START_TIMEOUT_MS);
  // Warm up: the first imports merged and the spec uploaded, so that the service has pages to edit.
  const warm = await waitSettled(world, queues, WARM_UP_TIMEOUT_MS);
  if (warm.at === undefined) throw new Error(`bench: the warm-up did not settle: ${warm.missing.join('; ')}`);

  const moves = { commits: 0, edits: 0, specChanges: 0, approvals: 0 };
  const kills: Kill[] = [];
  for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
    const began = Date.now();
    for (const mapping of ['both', 'oneway'] as const) {
      if (random() < 0.6) {
        await world.commit(mapping);
        moves.commits += 1;
      }
    }
    if (random() < 0.35) {
      world.editInService();
      moves.edits += 1;
    }
    if (random() < 0.4) {
      await world.changeSpec();
      moves.specChanges += 1;
    }
    moves.approvals += await world.approveOpen();
    const killAfterMs = Math.round(random() * KILL_WINDOW_MS);
    // The reviewer keeps approving until the kill: merges happen at any moment of the cycle.
    while (Date.now() < began + killAfterMs) {
      await sleep(Math.min(500, began + killAfterMs - Date.now()));
      moves.approvals += await world.approveOpen();
    }
    await current().kill();
    const stranded = await queues.active();
    const restartAt = Date.now();
    children.push(startDocsync(world.configPath));
    kills.push({ cycle, killAfterMs, stranded, restartAt, next: current() });
    await current().waitForLine('docsync started', START_TIMEOUT_MS);
  }
  const lastRestart = kills.at(-1)?.restartAt ?? Date.now();
  const settled = await waitSettled(world, queues, SETTLE_TIMEOUT_MS - (Date.now() - lastRestart));

  report('crash soak workload', {
    cycles: CYCLES,
    commits: moves.commits,
    serviceEdits: moves.edits,
    specChanges: moves.specChanges,
    approvals: moves.approvals,
  });
  reportStranded(kills, lines());
  const failedAsStalled = await queues.failedAsStalled();
  report('stranded jobs failed by BullMQ as stalled', {
    n: failedAsStalled.length,
    ...(failedAsStalled.length === 0 ? {} : { jobs: failedAsStalled.map((job) => job.id).join(' ') }),
  });
  if (settled.at === undefined) {
    report('last restart -> settled (target <= 60 s)', {
      settled: `no, not within ${SETTLE_TIMEOUT_MS / 1000} s`,
    });
    for (const missing of settled.missing) process.stdout.write(`  still missing: ${missing}\n`);
  } else {
    report('last restart -> settled (ms, target <= 60000)', { ms: settled.at - lastRestart });
  }
  const found = await verdict(world, lines());
  report('lost commits (target 0)', {
    n: found.lostCommits.length,
    of: world.markers.commits.both.length + world.markers.commits.oneway.length,
    ...(found.lostCommits.length === 0 ? {} : { which: found.lostCommits.join(' ') }),
  });
  report('lost service edits (target 0)', {
    n: found.lostEdits.length,
    of: world.markers.edits.length,
    onConflictBranchOnly: found.editsOnConflictBranches.length,
    conflictBranches: found.conflictBranches,
    ...(found.lostEdits.length === 0 ? {} : { which: found.lostEdits.join(' ') }),
    ...(found.goneFromSpace.length === 0 ? {} : { undoneInTheSpace: found.goneFromSpace.join(' ') }),
  });
  for (const marker of [...found.lostCommits, ...found.lostEdits]) world.writtenOff.add(marker);
  for (const mapping of ['both', 'oneway'] as const) {
    const tally = found.changeRequests[mapping];
    report(`duplicate change requests, ${mapping} (target 0)`, {
      n: found.duplicateChangeRequests[mapping],
      created: tally.created,
      merged: tally.merged,
      open: tally.open,
      archived: tally.archived,
    });
  }
  report('duplicate merges (target 0)', {
    n: found.duplicateMerges,
    mergesThatChangedNothing: found.emptyMerges,
  });
  report('duplicate spec versions (target 0)', {
    n: found.duplicateSpecVersions,
    versions: found.specVersions,
    specContentsWritten: world.markers.specs.length,
  });
  return settled.at === undefined ? {} : { settledMs: settled.at - lastRestart };
}

/**
 * Restart to the first log line of each job that was active at the kill (the runner's "job stalled"
 * warning, or any line of its run), and to its run's end; a job whose next process was killed
 * before it showed up is counted apart, not as a sample.
 */
function reportStranded(kills: readonly Kill[], lines: readonly DocsyncLine[]): void {
  const firstLine: number[] = [];
  const workFirstLine: number[] = [];
  const completed: number[] = [];
  const startup: number[] = [];
  const names = new Map<string, number>();
  let outlived = 0;
  let neverSeen = 0;
  const details: string[] = [];
  for (const [index, kill] of kills.entries()) {
    const workers = kill.next.lines.find((line) => line.msg === 'workers started');
    if (workers !== undefined) startup.push(workers.at - kill.restartAt);
    const parts: string[] = [];
    let pollJobs = 0;
    for (const job of kill.stranded) {
      names.set(job.name, (names.get(job.name) ?? 0) + 1);
      const own = kill.next.lines.filter((line) => line.job === job.id);
      const first = own[0];
      const end = own.find((line) => RUN_ENDS.has(line.msg ?? ''));
      // The polls' scheduler jobs are counted; the work they queue is shown one by one.
      const shown = !job.id.startsWith('repeat:');
      if (!shown) pollJobs += 1;
      if (first === undefined) {
        const later = lines.some((line) => line.job === job.id && line.at > kill.restartAt);
        if (index < kills.length - 1 || later) outlived += 1;
        else neverSeen += 1;
        if (shown) parts.push(`${job.id}: not seen in the next process`);
        continue;
      }
      firstLine.push(first.at - kill.restartAt);
      if (shown) workFirstLine.push(first.at - kill.restartAt);
      if (end !== undefined) completed.push(end.at - kill.restartAt);
      if (shown)
        parts.push(
          `${job.id}: "${first.msg}" +${((first.at - kill.restartAt) / 1000).toFixed(1)} s` +
            (end === undefined ? '' : `, ${end.msg} +${((end.at - kill.restartAt) / 1000).toFixed(1)} s`),
        );
    }
    if (pollJobs > 0) parts.push(`${pollJobs} poll jobs`);
    details.push(
      `  kill ${String(kill.cycle).padStart(2, '0')} at +${(kill.killAfterMs / 1000).toFixed(1)} s: ${parts.length === 0 ? 'no job active' : parts.join('; ')}`,
    );
  }
  report('stranded jobs at the kills', {
    kills: kills.length,
    killsWithActiveJobs: kills.filter((kill) => kill.stranded.length > 0).length,
    jobs: kills.reduce((sum, kill) => sum + kill.stranded.length, 0),
    byName: [...names.entries()].map(([name, n]) => `${name}:${n}`).join(','),
  });
  for (const line of details) process.stdout.write(`${line}\n`);
  report('restart -> stranded job first line (ms, target <= 15000)', latencyFigures(firstLine));
  report('  of which work, not polls (ms)', latencyFigures(workFirstLine));
  report('restart -> stranded job run ended (ms)', latencyFigures(completed));
  report('restart -> workers started (baseline, ms)', latencyFigures(startup));
  const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];
  const ratio = (median(firstLine) ?? Number.NaN) / (median(startup) ?? Number.NaN);
  report('stranded first line / workers started (p50s)', { ratio });
  report('stranded jobs not seen before the next kill', {
    n: outlived,
    neverSeenAfterLastRestart: neverSeen,
  });
}
