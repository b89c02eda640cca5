// How fast docsync answers: `docsync --help`, and `docsync start` on the embedded default until
// /healthz answers, then SIGTERM until the process has exited.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '../src/net/find-free-port.js';
import { PACKAGE_ROOT } from '../src/package-info.js';
import { report, summarize } from './stats.js';

const BIN = join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'bin.js');

export async function startupBench(): Promise<void> {
  const help: number[] = [];
  for (let i = 0; i < 15; i += 1) {
    const started = performance.now();
    spawnSync(process.execPath, [BIN, '--help'], { stdio: 'ignore' });
    help.push(performance.now() - started);
  }
  report('docsync --help (ms)', summarize(help));

  const toHealthy: number[] = [];
  const toExit: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const dir = await mkdtemp(join(tmpdir(), 'docsync-bench-start-'));
    const port = await findFreePort();
    const config = join(dir, 'docsync.yaml');
    await writeFile(
      config,
      `dataDir: ${join(dir, 'data')}\nhttp:\n  listen: 127.0.0.1:${port}\nlog:\n  level: warn\n`,
    );
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'start', '--config', config], {
      stdio: 'ignore',
      env: { PATH: process.env.PATH ?? '' },
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    toHealthy.push(performance.now() - started);
    const stopping = performance.now();
    child.kill('SIGTERM');
    const code = await exited;
    toExit.push(performance.now() - stopping);
    if (code !== 0) throw new Error(`docsync exited with ${code}`);
    await rm(dir, { recursive: true, force: true });
  }
  report('start (embedded redis) to /healthz (ms)', summarize(toHealthy));
  report('SIGTERM to exit, idle (ms)', summarize(toExit));
}
