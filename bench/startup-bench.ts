// How fast docsync answers: `docsync --help`, and `docsync start` on the embedded Redis until
// /healthz answers (the process serves), until /readyz answers 200 (Redis answers and the app
// serves), then until it logs `docsync started` (workers and producers running), then SIGTERM until
// the process has exited. It runs the bundle that `npm start` runs (dist/bundle/). The baseline, in
// the same run: a redis-server and a bare Node HTTP server started side by side, until both answer:
// /readyz is the like-for-like figure, since that baseline includes Redis answering. The ratios are
// of the medians; the target of each is at most 3x.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '../src/net/find-free-port.js';
import { PACKAGE_ROOT } from '../src/package-info.js';
import { figure } from './figure-table.js';
import { latencyFigures } from './latency-figures.js';
import { report, summarize } from './stats.js';

/**
 * The build measured: the bundle of `npm run build` that `npm start` runs, or another one's bin.js,
 * such as dist/src/cli/bin.js (tsc's output) or an older commit's.
 */
const BIN = process.env.DOCSYNC_BENCH_BIN ?? join(PACKAGE_ROOT, 'dist', 'bundle', 'bin.js');
const RUNS = 15;
const TARGET_RATIO = 3;
const HELLO_SERVER = `require('node:http').createServer((_q, s) => s.end('{"ok":true}')).listen(Number(process.env.PORT), '127.0.0.1');`;

export async function startupBench(): Promise<void> {
  const help: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    spawnSync(process.execPath, [BIN, '--help'], { stdio: 'ignore' });
    help.push(performance.now() - started);
  }
  report('docsync --help (ms)', summarize(help));

  const toHealthy: number[] = [];
  const toReady: number[] = [];
  const toStarted: number[] = [];
  const toExit: number[] = [];
  const baseline: number[] = [];
  // Interleaved, so that both see the same load of the machine.
  for (let i = 0; i < RUNS; i += 1) {
    const run = await docsyncStart();
    toHealthy.push(run.toHealthy);
    toReady.push(run.toReady);
    toStarted.push(run.toStarted);
    toExit.push(run.toExit);
    baseline.push(await bareStart());
  }
  const floor = latencyFigures(baseline);
  report('bin measured', { bin: BIN });
  report('baseline: redis-server + bare node (ms)', floor);
  startFigure('/healthz', 'start (embedded redis) to /healthz (ms)', latencyFigures(toHealthy), floor);
  startFigure('/readyz', 'start (embedded redis) to /readyz 200 (ms)', latencyFigures(toReady), floor);
  const started = latencyFigures(toStarted);
  report('start to `docsync started` (ms)', started);
  figure({ name: 'docsync start -> `docsync started`, p50 (ms)', docsync: Number(started.p50) });
  report('SIGTERM to exit, idle (ms)', latencyFigures(toExit));
}

/** One start figure: reported, and a row of the final table against the baseline's median. */
function startFigure(
  path: string,
  label: string,
  docsync: ReturnType<typeof latencyFigures>,
  floor: ReturnType<typeof latencyFigures>,
): void {
  report(label, docsync);
  const ratio = Number(docsync.p50) / Number(floor.p50);
  report(`${path} ratio (p50 / baseline p50)`, {
    ratio,
    target: `<= ${TARGET_RATIO}`,
    met: ratio <= TARGET_RATIO ? 'yes' : 'no',
  });
  figure({
    name: `docsync start -> ${path}, p50 (ms)`,
    docsync: Number(docsync.p50),
    baseline: Number(floor.p50),
    ratio,
    target: `<= ${TARGET_RATIO}x`,
    met: ratio <= TARGET_RATIO,
  });
}

async function docsyncStart(): Promise<{
  toHealthy: number;
  toReady: number;
  toStarted: number;
  toExit: number;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-bench-start-'));
  try {
    const port = await findFreePort();
    const config = join(dir, 'docsync.yaml');
    await writeFile(
      config,
      `dataDir: ${join(dir, 'data')}\nhttp:\n  listen: 127.0.0.1:${port}\nlog:\n  level: info\n`,
    );
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'start', '--config', config], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { PATH: process.env.PATH ?? '' },
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let startedAt: number | undefined;
    const running = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (startedAt === undefined && out.includes('"msg":"docsync started"')) {
          startedAt = performance.now();
          resolve();
        }
      });
    });
    await untilAnswers(port, '/healthz', child);
    const toHealthy = performance.now() - started;
    await untilAnswers(port, '/readyz', child);
    const toReady = performance.now() - started;
    await running;
    const toStarted = (startedAt ?? Number.NaN) - started;
    const stopping = performance.now();
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) throw new Error(`docsync exited with ${code}`);
    return { toHealthy, toReady, toStarted, toExit: performance.now() - stopping };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function bareStart(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-bench-bare-'));
  const [redisPort, httpPort] = [await findFreePort(), await findFreePort()];
  const started = performance.now();
  const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', dir], {
    stdio: 'ignore',
  });
  const node = spawn(process.execPath, ['-e', HELLO_SERVER], {
    stdio: 'ignore',
    env: { PATH: process.env.PATH ?? '', PORT: String(httpPort) },
  });
  try {
    await Promise.all([untilAnswers(httpPort, '/healthz', node), untilRedisAnswers(redisPort, redis)]);
    return performance.now() - started;
  } finally {
    await Promise.all([stop(redis), stop(node)]);
    await rm(dir, { recursive: true, force: true });
  }
}

/** Until `path` answers 200 (a 503 while docsync starts is asked again). */
async function untilAnswers(port: number, path: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the process exited (${child.exitCode}) before answering`);
    const ok = await fetch(`http://127.0.0.1:${port}${path}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function untilRedisAnswers(port: number, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode})`);
    const pong = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('error', () => resolve(false));
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        resolve(data.toString().startsWith('+PONG'));
        socket.destroy();
      });
    });
    if (pong) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
