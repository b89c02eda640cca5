// `docsync start` as a child process run from the sources (`node --import tsx src/cli/bin.ts`, so a
// stale dist/ cannot skew a figure), with its JSON log lines kept in arrival order, each with the
// time it was written, and the means to kill it as a crash would (SIGKILL) or stop it (SIGTERM).
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PACKAGE_ROOT } from '../src/package-info.js';

export interface DocsyncLine {
  msg?: string;
  job?: string;
  name?: string;
  result?: string;
  level?: string;
  /** When docsync wrote it, in ms since the epoch (its `time`). */
  at: number;
  [key: string]: unknown;
}

export interface DocsyncChild {
  pid: number;
  /** When the process was spawned (ms since the epoch). */
  startedAt: number;
  lines: DocsyncLine[];
  /** Waits for the first line with this message; fails when the process exits first. */
  waitForLine(msg: string, timeoutMs: number): Promise<DocsyncLine>;
  kill(): Promise<void>;
  stop(): Promise<void>;
  exited(): boolean;
}

const BIN = join(PACKAGE_ROOT, 'src', 'cli', 'bin.ts');

export function startDocsync(config: string): DocsyncChild {
  const startedAt = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, 'start', '--config', config], {
    cwd: PACKAGE_ROOT,
    // Nothing of the developer's REDIS_URL or DOCSYNC_* reaches it.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error('bench: docsync could not be started');
  const lines: DocsyncLine[] = [];
  let partial = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const parts = text.split('\n');
    partial = parts.pop() ?? '';
    for (const part of parts) {
      if (!part.startsWith('{')) continue;
      const line = JSON.parse(part) as Omit<DocsyncLine, 'at'> & { time?: string };
      lines.push({ ...line, at: line.time === undefined ? Date.now() : Date.parse(line.time) });
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    pid: child.pid,
    startedAt,
    lines,
    async waitForLine(msg, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = lines.find((candidate) => candidate.msg === msg);
        if (line !== undefined) return line;
        if (exited()) throw new Error(`bench: docsync exited before "${msg}": ${stderr}`);
        if (Date.now() > deadline) throw new Error(`bench: no "${msg}" from docsync within ${timeoutMs} ms`);
        await sleep(20);
      }
    },
    kill: () => signal(child, 'SIGKILL', ended),
    stop: () => signal(child, 'SIGTERM', ended),
    exited,
  };
}

async function signal(child: ChildProcess, name: NodeJS.Signals, ended: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill(name);
  await ended;
}
