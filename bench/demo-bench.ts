// The embedded demo behind `npm start`, timed: start to "demo ready", to the first merge with its
// links checked and the spec uploaded, a saved edit to its merge; then how long /status and the
// status page take to answer on that demo, and SIGINT to exit.
import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '../src/net/find-free-port.js';
import { PACKAGE_ROOT } from '../src/package-info.js';
import { figure } from './figure-table.js';
import { report, summarize } from './stats.js';

const BIN = join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'bin.js');
const RUNS = 3;
const REQUESTS = 200;

interface DemoStatus {
  mappings: Array<{
    lastMerge?: { changeRequest: { number: number } };
    linkChecks: Array<{ target: string }>;
  }>;
  openapi: Array<{ version?: string }>;
}

async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('the demo did not get there within 2 minutes');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function timeRequests(url: string): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const started = performance.now();
    await (await fetch(url)).arrayBuffer();
    samples.push(performance.now() - started);
  }
  return samples;
}

export async function demoBench(): Promise<void> {
  const ready: number[] = [];
  const merged: number[] = [];
  const edit: number[] = [];
  const exit: number[] = [];
  let status: number[] = [];
  let page: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const dir = await mkdtemp(join(tmpdir(), 'docsync-bench-demo-'));
    const port = await findFreePort();
    const address = `http://127.0.0.1:${port}`;
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'start'], {
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        DOCSYNC_DEMO_DIR: dir,
        DOCSYNC_HTTP_LISTEN: `127.0.0.1:${port}`,
        DOCSYNC_LOG_LEVEL: 'warn',
      },
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const read = async () => (await (await fetch(`${address}/status`)).json()) as DemoStatus;
    await until(async () => ((await fetch(`${address}/healthz`)).ok ? true : undefined));
    ready.push(performance.now() - started);
    const first = await until(async () => {
      const now = await read();
      const mapping = now.mappings[0];
      return mapping?.lastMerge !== undefined &&
        mapping.linkChecks.some((check) => check.target === 'main') &&
        now.openapi[0]?.version !== undefined
        ? mapping.lastMerge.changeRequest.number
        : undefined;
    });
    merged.push(performance.now() - started);

    const saved = performance.now();
    await appendFile(join(dir, 'repo', 'docs', 'getting-started.md'), `\nEdited by run ${run}.\n`);
    await until(async () => {
      const number = (await read()).mappings[0]?.lastMerge?.changeRequest.number;
      return number !== undefined && number > first ? number : undefined;
    });
    edit.push(performance.now() - saved);

    status = status.concat(await timeRequests(`${address}/status`));
    page = page.concat(await timeRequests(`${address}/`));

    const stopping = performance.now();
    child.kill('SIGINT');
    const code = await exited;
    exit.push(performance.now() - stopping);
    if (code !== 0) throw new Error(`the demo exited with ${code}`);
    await rm(dir, { recursive: true, force: true });
  }
  report('demo start to /healthz (ms)', summarize(ready));
  report('demo start to merged+links+spec (ms)', summarize(merged));
  report('saved edit to its merge (ms)', summarize(edit));
  report('GET /status on the demo (ms)', summarize(status));
  report('GET / (status page) on the demo (ms)', summarize(page));
  report('SIGINT to exit (ms)', summarize(exit));
  figure({ name: 'demo start to merged+links+spec, p50 (ms)', docsync: summarize(merged).median });
}
