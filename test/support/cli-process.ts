// Runs the built `docsync` executable as a child process, the way users and CI run it: the bundle
// of `npm run build` (dist/bundle/), which `npm start`, the `docsync` bin and the image run. The
// global setup builds dist/ from the current sources before the integration tests run.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import { closeAfter } from './close-after.js';
import { TEST_RUN_ENV } from './leftover-processes.js';
import { waitFor } from './wait-for.js';

export const BIN = join(PACKAGE_ROOT, 'dist', 'bundle', 'bin.js');
/** tsc's build of the same command line, a module per source file: for a test of what loads when. */
export const TSC_BIN = join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'bin.js');

export interface CliRun {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** stdout's JSON log lines so far. */
  lines: () => Array<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitForLog: (msg: string, timeoutMs?: number) => Promise<Record<string, unknown>>;
}

/**
 * A clean environment: nothing of the developer's REDIS_URL or DOCSYNC_* leaks into a test. Only the
 * test run's id and temp folder go along, so that the run's end can tell whether the CLI left a
 * process behind.
 */
export function cliEnv(extra: Record<string, string> = {}): Record<string, string> {
  const run: Record<string, string> = {};
  for (const name of [TEST_RUN_ENV, 'TMPDIR']) {
    const value = process.env[name];
    if (value !== undefined) run[name] = value;
  }
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...run, ...extra };
}

export interface StartCliOptions {
  env?: Record<string, string>;
  cwd?: string;
  script?: string;
  /** Another program to run instead of `node <bin>`, such as `['npm', 'start']`. */
  command?: readonly [string, ...string[]];
  /** Its own process group, so a test can signal the whole group as a terminal's Ctrl-C does. */
  detached?: boolean;
}

export function startCli(args: readonly string[], options: StartCliOptions = {}): CliRun {
  const [program, ...programArgs] = options.command ?? [process.execPath, options.script ?? BIN];
  const child = spawn(program, [...programArgs, ...args], {
    cwd: options.cwd ?? PACKAGE_ROOT,
    env: options.env ?? cliEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  closeAfter(() => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // A detached child leads its own group: end what it started (npm's child) with it.
    if (options.detached === true && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  });
  const lines = () =>
    out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    lines,
    exited,
    waitForLog: (msg, timeoutMs = 15_000) =>
      waitFor(
        () => {
          if (child.exitCode !== null)
            throw new Error(`docsync exited (${child.exitCode}) before logging "${msg}": ${err}${out}`);
          return lines().find((line) => line.msg === msg);
        },
        `the log line "${msg}"`,
        timeoutMs,
      ),
  };
}

export async function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
) {
  const run = startCli(args, options);
  const { code } = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
