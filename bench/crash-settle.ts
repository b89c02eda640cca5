// Waits for a crash soak world to settle while the reviewer keeps approving docsync's change
// requests: nothing pending in the queues, every commit in its space, every change request merged,
// every service edit on the branch, the last spec uploaded.
import { setTimeout as sleep } from 'node:timers/promises';
import { type BenchQueues, settleView } from './crash-checks.js';
import type { CrashWorld } from './crash-world.js';

const LOOK_EVERY_MS = 250;

export interface Settled {
  /** When it settled (ms since the epoch), undefined when it did not within the time given. */
  at?: number;
  /** What was still missing at the last look. */
  missing: string[];
}

export async function waitSettled(
  world: CrashWorld,
  queues: BenchQueues,
  timeoutMs: number,
): Promise<Settled> {
  const deadline = Date.now() + timeoutMs;
  let missing: string[] = [];
  for (;;) {
    await world.approveOpen();
    const view = await settleView(world, queues).catch((error: unknown) => ({
      settled: false,
      missing: [`not readable: ${(error as Error).message}`],
    }));
    if (view.settled) return { at: Date.now(), missing: [] };
    missing = view.missing;
    if (Date.now() > deadline) return { missing };
    await sleep(LOOK_EVERY_MS);
  }
}
