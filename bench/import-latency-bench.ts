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
import { createEmulator } from '../src/emulator/create-emulator.js';
import { Shutdown } from '../src/lifecycle/shutdown.js';
import { startEmbeddedRedis } from '../src/redis/embedded-redis-server.js';
import { report, summarize } from './stats.js';

const SAVES = 50;
const DEBOUNCE_MS = 500;

export async function importLatencyBench(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'docsync-bench-import-'));
  const log = pino({ level: 'silent' });
  const redis = await startEmbeddedRedis({ dir: join(root, 'redis'), log });
  const emulator = await createEmulator({
    members: [{ name: 'Admin', token: 'bench-admin-token', role: 'admin' }],
    log,
  });
  const received = new EventEmitter();
  emulator.app.addHook('onRequest', async (request) => {
    if (request.method === 'POST' && request.url.endsWith('/content/import'))
      received.emit('import', performance.now());
  });
  const origin = await emulator.listen('127.0.0.1', 0);
  const space = await (
    await fetch(`${origin}/v1/orgs/${emulator.orgId}/spaces`, {
      method: 'POST',
      headers: { authorization: 'Bearer bench-admin-token', 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Bench' }),
    })
  ).json();
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
service: { baseUrl: "${origin}/v1", token: bench-admin-token }
mappings:
  - name: bench
    space: ${(space as { id: string }).id}
    git: { repo: ${work}, branch: main, dir: docs, poll: 1d, watch: { path: ${work}, debounce: ${DEBOUNCE_MS}ms } }
`,
    'bench.yaml',
    {},
  );
  const shutdown = new Shutdown({
    log,
    timeoutMs: 30_000,
    exit: () => {},
    proc: Object.assign(new EventEmitter(), { exitCode: undefined }) as unknown as NodeJS.Process,
  });
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
  await emulator.close();
  await redis.stop();
  await rm(root, { recursive: true, force: true });
}

function percentile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}
