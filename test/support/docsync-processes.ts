// Several `docsync start` processes of the built CLI on one Redis and one configuration file, as a
// team runs them on several machines: each in a working directory of its own, so each keeps its own
// data folder (git mirrors, bundles) as a machine would, and listens on a port of its own. A slot is
// one of those processes; stopping or killing one and starting it again keeps every log line it
// wrote, so a test reads the lines of all runs of all slots.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type CliRun, cliEnv, startCli } from './cli-process.js';
import { tempDir } from './test-context.js';

type LogLine = Record<string, unknown>;

/** One run of a slot's process; `killedAt` once it was killed (ms since the epoch, after it ended). */
export interface SlotRun {
  slot: number;
  run: CliRun;
  killedAt?: number;
}

export interface DocsyncProcesses {
  /** The current run of each slot. */
  runs: CliRun[];
  /** Every log line of every run of every slot so far, in no particular order across processes. */
  lines(): LogLine[];
  /** Every run of every slot so far, in the order they started. */
  history: SlotRun[];
  /** Starts slot `slot` again (or for the first time) and waits until it logged `docsync started`. */
  start(slot: number): Promise<CliRun>;
  /** SIGTERM, as a rolling restart sends it; waits for the exit and checks that it was clean. */
  stop(slot: number): Promise<void>;
  /** SIGKILL, as a crash; waits until the process has ended. */
  kill(slot: number): Promise<void>;
  /** The slot whose current run has this pid. */
  slotOf(pid: number): number | undefined;
}

export interface DocsyncProcessesOptions {
  /** The configuration file's text; `${TEST_REDIS_URL}` in it is the private Redis. */
  config: string;
  count: number;
  /** The environment of the process of each slot, beside the clean one of cliEnv. */
  env: (slot: number) => Record<string, string>;
}

/** Writes the configuration once and starts `count` processes on it, all started when it resolves. */
export async function startDocsyncProcesses(options: DocsyncProcessesOptions): Promise<DocsyncProcesses> {
  const dir = await tempDir('processes');
  const file = join(dir, 'docsync.yaml');
  await writeFile(file, options.config);
  const cwds: string[] = [];
  for (let slot = 0; slot < options.count; slot += 1) cwds.push(await tempDir(`process-${slot}`));
  const history: SlotRun[] = [];
  const runs: CliRun[] = [];
  const start = async (slot: number) => {
    const run = startCli(['start', '--config', file], {
      cwd: cwds[slot] ?? dir,
      env: cliEnv(options.env(slot)),
    });
    runs[slot] = run;
    history.push({ slot, run });
    // Several processes starting at once on two shared cores take longer than one alone.
    await run.waitForLog('docsync started', 60_000);
    return run;
  };
  const current = (slot: number) => {
    const run = runs[slot];
    if (run === undefined) throw new Error(`no docsync process in slot ${slot}`);
    return run;
  };
  const processes: DocsyncProcesses = {
    runs,
    lines: () => history.flatMap(({ run }) => run.lines()),
    history,
    start,
    async stop(slot) {
      const run = current(slot);
      run.child.kill('SIGTERM');
      const exit = await run.exited;
      if (exit.code !== 0)
        throw new Error(`docsync in slot ${slot} stopped with ${JSON.stringify(exit)}: ${run.stderr()}`);
    },
    async kill(slot) {
      const run = current(slot);
      run.child.kill('SIGKILL');
      await run.exited;
      const entry = history.findLast((candidate) => candidate.run === run);
      if (entry !== undefined) entry.killedAt = Date.now();
    },
    slotOf: (pid) => {
      const slot = runs.findIndex((run) => run.child.pid === pid);
      return slot === -1 ? undefined : slot;
    },
  };
  await Promise.all(Array.from({ length: options.count }, (_, slot) => start(slot)));
  return processes;
}
