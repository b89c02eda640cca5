// The Redis-wiped part of the crash soak (issue 36): Redis loses everything under a running docsync
// (FLUSHALL, as a Redis without persistence restarted by its orchestrator, or a failover to a replica
// that had not caught up, would leave it) at a seeded random moment after each round's commits, edit
// and spec change. docsync must find its schedulers and its state again from git and the service:
// nothing lost, nothing done twice. Prints each round's time from the wipe to settled, and what was
// lost or duplicated over the wipes alone.
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { BenchRedis } from './bench-redis.js';
import { type BenchQueues, type Verdict, verdict } from './crash-checks.js';
import { waitSettled } from './crash-settle.js';
import type { CrashWorld } from './crash-world.js';
import type { DocsyncChild } from './docsync-child.js';
import { latencyFigures } from './latency-figures.js';
import { report } from './stats.js';

const ROUNDS = 5;
/** The wipe falls this long at most after a round's moves. */
const WIPE_WINDOW_MS = 4_000;
const SETTLE_TIMEOUT_MS = 120_000;

export async function redisWipes(
  world: CrashWorld,
  queues: BenchQueues,
  redis: BenchRedis,
  children: readonly DocsyncChild[],
  random: () => number,
): Promise<void> {
  const lines = () => children.flatMap((child) => child.lines);
  const before = await verdict(world, lines());
  const client = new Redis(redis.url, { maxRetriesPerRequest: 3 });
  client.on('error', () => undefined);
  const settleMs: number[] = [];
  let unsettled = 0;
  try {
    for (let round = 1; round <= ROUNDS; round += 1) {
      await world.commit('both');
      await world.commit('oneway');
      world.editInService();
      await world.changeSpec();
      await sleep(Math.round(random() * WIPE_WINDOW_MS));
      await client.flushall();
      const wipedAt = Date.now();
      const settled = await waitSettled(world, queues, SETTLE_TIMEOUT_MS);
      if (settled.at === undefined) {
        unsettled += 1;
        process.stdout.write(`  wipe ${round} did not settle: ${settled.missing.join('; ')}\n`);
      } else settleMs.push(settled.at - wipedAt);
    }
  } finally {
    client.disconnect();
  }
  report('redis wiped (FLUSHALL) -> settled (ms)', {
    ...latencyFigures(settleMs),
    settled: `${settleMs.length}/${ROUNDS}`,
    ...(unsettled === 0 ? {} : { unsettled }),
  });
  const after = await verdict(world, lines());
  const grown = (pick: (found: Verdict) => number) => pick(after) - pick(before);
  report('after the wipes: lost and duplicated (target 0 each)', {
    lostCommits: grown((found) => found.lostCommits.length),
    lostEdits: grown((found) => found.lostEdits.length),
    editsOnConflictBranchesOnly: grown((found) => found.editsOnConflictBranches.length),
    duplicateChangeRequests: grown(
      (found) => found.duplicateChangeRequests.both + found.duplicateChangeRequests.oneway,
    ),
    duplicateMerges: grown((found) => found.duplicateMerges),
    duplicateSpecVersions: grown((found) => found.duplicateSpecVersions),
  });
}
