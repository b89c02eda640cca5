// The export rows of the scale bench (bench/scale-bench.ts) in a process of their own, so that the
// peak memory is the export's, not what the bundles measured before it left in the bench's heap:
// a space-to-git export of the space into the repository, first (every file committed), then the
// same revision again (nothing to commit). Prints one JSON line per run: wall time, the peak RSS of
// this process while it ran (sampled, and the kernel's high-water mark for the first), and where the
// time went. Run from the sources through tsx, whose loader adds its own memory to the figure.
// Arguments: one JSON object, ExportChildArgs.
import { join } from 'node:path';
import { pino } from 'pino';
import { createDocsApiClient } from '../src/api/create-docs-api-client.js';
import { mappingSchema } from '../src/config/mapping-schema.js';
import { runExport } from '../src/export/run-export.js';
import { GitMirror } from '../src/git/git-mirror.js';
import { MemoryMappingStateStore } from '../src/state/memory-mapping-state-store.js';
import { measureMemory } from './measure-memory.js';

export interface ExportChildArgs {
  baseUrl: string;
  token: string;
  space: string;
  /** The bare repository exported into. */
  remote: string;
  /** Where the mirror goes. */
  dir: string;
}

export interface ExportChildRun {
  result: string;
  seconds: number;
  peakRssMiB: number;
  /** The RSS when the run started: the process with its modules loaded and nothing exported yet. */
  startRssMiB: number;
  readRevisionS: number;
  downloadS: number;
  commitS: number;
  pushS: number;
  otherS: number;
}

const args = JSON.parse(process.argv[2] ?? '{}') as ExportChildArgs;
const log = pino({ level: 'silent' });
const mapping = mappingSchema.parse({
  name: 'scale',
  space: args.space,
  direction: 'space-to-git',
  git: { repo: args.remote, branch: 'main', dir: 'docs' },
});
const api = createDocsApiClient({ baseUrl: args.baseUrl, token: args.token, timeout: 600_000 });
const deps = {
  api,
  mirror: new GitMirror({
    repo: args.remote,
    dir: join(args.dir, 'export-mirror.git'),
    log,
    timeoutMs: 600_000,
  }),
  state: new MemoryMappingStateStore(),
  log,
  now: () => new Date(),
  signal: new AbortController().signal,
  dryRun: false,
};
// Where an export's time goes: the revision read (the service's own time to answer included),
// the file downloads, git's commit and push; `other` is docsync's planning between them.
const spent = new Map<string, number>();
timePhases(api.content, ['getRevision', 'download'], spent);
timePhases(deps.mirror, ['writeFolderCommit', 'push'], spent);

try {
  for (const [i, expected] of ['committed', 'unchanged'].entries()) {
    const run = await measured(() => runExport(deps, mapping), i === 0);
    if (run.result !== expected) throw new Error(`export: expected ${expected}, got ${run.result}`);
    process.stdout.write(`${JSON.stringify(run)}\n`);
  }
} finally {
  await api.close();
}

/** One export timed and its memory sampled, with where its time went. */
async function measured(work: () => Promise<{ result: string }>, first: boolean): Promise<ExportChildRun> {
  const run = await measureMemory(work, { highWater: first });
  const phase = (name: string) => (spent.get(name) ?? 0) / 1000;
  const timed = [...spent.values()].reduce((sum, ms) => sum + ms, 0) / 1000;
  const split = {
    readRevisionS: phase('getRevision'),
    downloadS: phase('download'),
    commitS: phase('writeFolderCommit'),
    pushS: phase('push'),
    otherS: run.seconds - timed,
  };
  spent.clear();
  return {
    result: run.value.result,
    seconds: run.seconds,
    peakRssMiB: run.peakRssMiB,
    startRssMiB: run.startRssMiB,
    ...split,
  };
}

/**
 * Adds the wall time of each call of `target`'s methods `names` to `spent` under its name; calls of
 * one method running at once (downloads in parallel) count once.
 */
function timePhases<T extends object>(target: T, names: readonly string[], accrued: Map<string, number>) {
  for (const name of names) {
    const method: unknown = Reflect.get(target, name);
    if (typeof method !== 'function') throw new Error(`no method ${name} to time`);
    let running = 0;
    let since = 0;
    Reflect.set(target, name, async (...callArgs: unknown[]) => {
      if (running === 0) since = performance.now();
      running += 1;
      try {
        return await Reflect.apply(method, target, callArgs);
      } finally {
        running -= 1;
        if (running === 0) accrued.set(name, (accrued.get(name) ?? 0) + performance.now() - since);
      }
    });
  }
}
