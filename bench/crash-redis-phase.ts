// The Redis part of the crash soak: the redis-server docsync uses is killed (SIGKILL) and started
// again on the same port with its append-only files, three times, a commit pushed just before each
// kill; the recovery time is from Redis answering again to docsync's next completed job, beside the
// usual gap between two completed jobs measured just before. Then the run must settle again.
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchRedis } from './bench-redis.js';
import type { BenchQueues } from './crash-checks.js';
import { waitSettled } from './crash-settle.js';
import type { CrashWorld } from './crash-world.js';
import { type DocsyncChild, startDocsync } from './docsync-child.js';
import { latencyFigures } from './latency-figures.js';
import { report } from './stats.js';

const ROUNDS = 3;
const STEADY_MS = 3_000;
const RECOVERY_TIMEOUT_MS = 60_000;
const SETTLE_AGAIN_TIMEOUT_MS = 60_000;

export async function redisRestarts(
  world: CrashWorld,
  queues: BenchQueues,
  redis: BenchRedis,
  children: DocsyncChild[],
): Promise<void> {
  const first = children.at(-1);
  if (first === undefined) throw new Error('bench: no docsync is running');
  let running = first;
  const recovery: number[] = [];
  const gaps: number[] = [];
  let exits = 0;
  for (let round = 1; round <= ROUNDS; round += 1) {
    const steadyFrom = Date.now();
    await sleep(STEADY_MS);
    const completed = running.lines
      .filter((line) => line.msg === 'job completed' && line.at >= steadyFrom)
      .map((line) => line.at);
    for (let i = 1; i < completed.length; i += 1) gaps.push((completed[i] ?? 0) - (completed[i - 1] ?? 0));
    await world.commit('oneway');
    await redis.kill();
    await redis.restart();
    const upAt = Date.now();
    const deadline = upAt + RECOVERY_TIMEOUT_MS;
    for (;;) {
      if (running.exited()) {
        // docsync gave up on Redis: started again, as a supervisor would, and counted.
        exits += 1;
        running = startDocsync(world.configPath);
        children.push(running);
      }
      const next = running.lines.find((line) => line.msg === 'job completed' && line.at > upAt);
      if (next !== undefined) {
        recovery.push(next.at - upAt);
        break;
      }
      if (Date.now() > deadline) break;
      await sleep(20);
    }
  }
  report('redis restart -> next job completed (ms)', {
    ...latencyFigures(recovery),
    recovered: `${recovery.length}/${ROUNDS}`,
    docsyncExited: exits,
  });
  report('gap between completed jobs, steady (baseline, ms)', latencyFigures(gaps));
  const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];
  report('redis recovery / steady gap (p50s)', {
    ratio: (median(recovery) ?? Number.NaN) / (median(gaps) ?? Number.NaN),
  });
  const from = Date.now();
  const settled = await waitSettled(world, queues, SETTLE_AGAIN_TIMEOUT_MS);
  if (settled.at === undefined) {
    report('settled again after the redis restarts', { settled: 'no' });
    for (const missing of settled.missing) process.stdout.write(`  still missing: ${missing}\n`);
  } else {
    report('settled again after the redis restarts (ms)', { ms: settled.at - from });
  }
}
