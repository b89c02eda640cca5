// The crash soak of issue 16 (`npm run bench -- crash`): docsync as a child process on a private
// redis-server with append-only files, against the local service, two repositories and a spec file.
// 1. kill -9 at a seeded random moment of each of 20 workload cycles, then what was lost or done
//    twice, the time to settle and the time from restart to each stranded job's next run
//    (bench/crash-soak.ts); 2. the Redis server killed and restarted (bench/crash-redis-phase.ts);
// 3. Redis wiped (FLUSHALL) under the running docsync five times (bench/crash-wipe-phase.ts);
// 4. a fixed workload with and without 30 % injected 429/503 (bench/crash-faults-phase.ts).
// It measures and prints; it never fails on a time. CRASH_SEED=<n> repeats a run's kill moments.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchRedis, startBenchRedis } from './bench-redis.js';
import { benchQueues } from './crash-checks.js';
import { faultComparison } from './crash-faults-phase.js';
import { redisRestarts } from './crash-redis-phase.js';
import { crashSoak } from './crash-soak.js';
import { redisWipes } from './crash-wipe-phase.js';
import { createCrashWorld } from './crash-world.js';
import type { DocsyncChild } from './docsync-child.js';
import { figure } from './figure-table.js';
import { report } from './stats.js';
import { xorshift } from './xorshift.js';

export async function crashBench(): Promise<void> {
  const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
  report('seed', { seed, repeat: `CRASH_SEED=${seed} npm run bench -- crash` });
  const started = Date.now();
  const dir = await mkdtemp(join(tmpdir(), 'docsync-bench-crash-'));
  let redis: BenchRedis | undefined;
  const children: DocsyncChild[] = [];
  try {
    await mkdir(join(dir, 'redis'));
    redis = await startBenchRedis(join(dir, 'redis'));
    await mkdir(join(dir, 'soak'));
    const world = await createCrashWorld({ dir: join(dir, 'soak'), redisUrl: redis.url, label: 'soak' });
    const queues = benchQueues(redis.url, world.prefix);
    try {
      const random = xorshift(seed);
      const soak = await crashSoak(world, queues, random, children);
      await redisRestarts(world, queues, redis, children);
      await redisWipes(world, queues, redis, children, random);
      await children.at(-1)?.stop();
      const { calmSettledMs } = await faultComparison(dir, redis.url);
      if (soak.settledMs !== undefined && calmSettledMs !== undefined) {
        report('settle after kills / fault-free settle', { ratio: soak.settledMs / calmSettledMs });
        figure({
          name: 'crash soak: settle after kills (ms)',
          docsync: soak.settledMs,
          baseline: `fault-free ${calmSettledMs.toFixed(0)}`,
          ratio: soak.settledMs / calmSettledMs,
        });
      }
    } finally {
      for (const child of children) await child.kill();
      // Kept after the run, for the lines behind a figure (a lost edit, a stranded job).
      const log = join(tmpdir(), `docsync-crash-${seed}.ndjson`);
      await writeFile(
        log,
        children.flatMap((child) => child.lines.map((line) => `${JSON.stringify(line)}\n`)).join(''),
      );
      report('docsync log lines of the soak', { file: log });
      await queues.close();
      await world.close();
    }
  } finally {
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
    report('crash soak total (s)', { s: (Date.now() - started) / 1000 });
  }
}
