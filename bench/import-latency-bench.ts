// From a file saved in a watched working copy to the import request received by the service:
// p50 and p99 over 50 saves, with everything real and local (private redis-server, the local
// service over HTTP, the daemon with its file watcher and workers). Target: p50 under the
// debounce + 150 ms.

import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { JOBS } from '../jobs/registry.js';
import { parseConfig } from '../src/config/load-config.js';
import { startDaemon } from '../src/daemon/start-daemon.js';
import { startEmbeddedRedis } from '../src/redis/embedded-redis-server.js';
import { detachedShutdown } from '../test/support/detached-shutdown.js';
import { BENCH_ADMIN_TOKEN, startBenchService } from './bench-service.js';
import { report, summarize } from './stats.js';

const SAVES = 50;
const DEBOUNCE_MS = 500;

export async function importLatencyBench(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'docsync-bench-import-'));
  const log = pino({ level: 'silent' });
  const redis = await startEmbeddedRedis({ dir: join(root, 'redis'), log });
  const received = new EventEmitter();
  const service = await startBenchService({
    log,
    prepare: (emulator) =>
      emulator.app.addHook('onRequest', async (request) => {
        if (request.method === 'POST' && request.url.endsWith('/content/import'))
          received.emit('import', performance.now());
      }),
  });
  const space = await service.createSpace('Bench');
  const work = join(root, 'work');
  await mkdir(join(work, 'docs'), { recursive: true });
  await writeFile(join(work, 'docs', 'README.md'), '# Bench\n');
  execFileSync('git', ['init', '--quiet', '--initial-branch=main', work]);
  execFileSync('git', ['-C', work, 'add', 'docs']);
  execFileSync('git', [
    '-C',
    work,
    '-c',
    'user.name=b',
    '-c',
    'user.email=b@b',
    'commit',
    '--quiet',
    '-m',
    'start',
  ]);

  const config = parseConfig(
    `dataDir: ${join(root, 'data')}
redis: { url: "${redis.url}" }
http: { listen: "127.0.0.1:0" }
service: { baseUrl: "${service.baseUrl}", token: ${BENCH_ADMIN_TOKEN} }
mappings:
  - name: bench
    space: ${space}
    git: { repo: ${work}, branch: main, dir: docs, poll: 1d, watch: { path: ${work}, debounce: ${DEBOUNCE_MS}ms } }
`,
    'bench.yaml',
    {},
  );
  const shutdown = detachedShutdown(log, 30_000);
  await startDaemon({ config, log, jobs: JOBS, shutdown, version: 'bench' });
  // The scheduler's first poll imports the committed state; wait for it to pass.
  await new Promise((resolve) => received.once('import', resolve));
  await new Promise((resolve) => setTimeout(resolve, 500));

  const samples: number[] = [];
  for (let i = 0; i < SAVES; i += 1) {
    const arrived = new Promise<number>((resolve) => received.once('import', resolve));
    const saved = performance.now();
    await writeFile(join(work, 'docs', 'README.md'), `# Bench\n\nSave ${i}.\n`);
    samples.push((await arrived) - saved);
    // Let the import finish before the next save, so each save is measured on its own.
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  const figures = summarize(samples);
  report(`save -> import request, debounce ${DEBOUNCE_MS} ms (ms)`, {
    p50: figures.median,
    p99: percentile(samples, 0.99),
    min: figures.min,
    max: figures.max,
  });
  report('target: p50 under debounce + 150 ms', {
    target: DEBOUNCE_MS + 150,
    met: figures.median < DEBOUNCE_MS + 150 ? 'yes' : 'no',
  });
  await shutdown.run('bench finished');
  await service.close();
  await redis.stop();
  await rm(root, { recursive: true, force: true });
}

function percentile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}
