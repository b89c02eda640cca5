// Finds the redis-server and docsync processes a test run started and left running. The global
// setup gives the run an id and a temp folder (TMPDIR) in the environment, which every process the
// tests start inherits (the CLI's clean environment passes both on). A process is the run's when its
// environment holds the id, or when it works in the run's folder: redis-server overwrites its
// environment to rename itself, but works in its data folder. So a Redis on 6379 or another run's
// processes are never flagged. Linux only: it reads /proc.
import { existsSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The environment variable carrying the id of the test run that started a process. */
export const TEST_RUN_ENV = 'DOCSYNC_TEST_RUN';

export interface RunningProcess {
  pid: number;
  /** Its command line, as /proc shows it (redis-server rewrites its own to `redis-server host:port`). */
  argv: readonly string[];
  /** The kernel's short name of the executable. */
  comm: string;
}

export type LeftoverKind = 'redis-server' | 'docsync';

const DOCSYNC_SCRIPT = /(^|[\\/])((cli|bundle)[\\/]bin\.[cm]?[jt]s|start-with-slow-job\.mjs)$/;

/** What a process started by the tests is, when it is one that must not outlive the run. */
export function leftoverKind(process: RunningProcess): LeftoverKind | undefined {
  const [program = '', ...args] = process.argv;
  if (process.comm === 'redis-server' || basename(program.split(' ')[0] ?? '').startsWith('redis-server'))
    return 'redis-server';
  if (args.some((arg) => DOCSYNC_SCRIPT.test(arg))) return 'docsync';
  // `npm start` runs docsync as its child; npm itself left behind is the same leak.
  const npm = basename(program) === 'npm' || args.some((arg) => arg.endsWith('npm-cli.js'));
  if (npm && args.includes('start')) return 'docsync';
  return undefined;
}

export interface TestRun {
  id: string;
  /** The run's temp folder, as the kernel names it (no symbolic link in the path). */
  dir: string;
}

/** Live processes started by `run`, except this one. */
export async function processesOfRun(run: TestRun): Promise<RunningProcess[]> {
  const marker = `${TEST_RUN_ENV}=${run.id}`;
  const found: RunningProcess[] = [];
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const environ = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
      const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => '');
      if (!environ.includes(marker) && !cwd.startsWith(`${run.dir}/`)) continue;
      // A zombie has ended; only its parent's bookkeeping is left.
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
      const comm = (await readFile(`/proc/${pid}/comm`, 'utf8')).trim();
      found.push({ pid, argv, comm });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/**
 * Throws, naming each pid and command line, when a redis-server or docsync process of this run is
 * still alive after `graceMs` (processes told to stop at the very end get that long to exit).
 */
export async function assertNothingLeftOver(run: TestRun, graceMs = 5000): Promise<void> {
  if (!existsSync('/proc/self/environ')) {
    process.stderr.write('leftover process check skipped: it needs Linux /proc\n');
    return;
  }
  const deadline = Date.now() + graceMs;
  for (;;) {
    const left = (await processesOfRun(run)).filter((found) => leftoverKind(found) !== undefined);
    if (left.length === 0) return;
    if (Date.now() > deadline) {
      const list = left.map((found) => `  ${found.pid} (${leftoverKind(found)}): ${found.argv.join(' ')}`);
      throw new Error(`processes started by the tests are still running after the run:\n${list.join('\n')}`);
    }
    await sleep(100);
  }
}
