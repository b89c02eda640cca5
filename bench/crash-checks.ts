// What the crash soak reads to judge a run: docsync's pending work in Redis (BullMQ's own view),
// the service's content, change requests and spec versions (read in-process), and the remote's
// branches. `settled` says whether everything the workload did has arrived; `verdict` counts what
// was lost or done twice.
import { createHash } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { StoredPage } from '../src/emulator/emulator-state.js';
import { QUEUE_NAMES, type QueueName } from '../src/queue/queue-names.js';
import type { CrashWorld, MappingKey } from './crash-world.js';
import type { DocsyncLine } from './docsync-child.js';

const MAPPINGS = ['both', 'oneway'] as const;

export interface ActiveJob {
  queue: QueueName;
  id: string;
  name: string;
}

export interface BenchQueues {
  active(): Promise<ActiveJob[]>;
  /** Jobs waiting, active or delayed that are work, not a scheduler's tick: their names. */
  pending(): Promise<string[]>;
  /** Failed jobs whose reason is BullMQ's "stalled more than allowable limit". */
  failedAsStalled(): Promise<ActiveJob[]>;
  close(): Promise<void>;
}

export function benchQueues(redisUrl: string, prefix: string): BenchQueues {
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', () => {});
  const queues = QUEUE_NAMES.map((name) => {
    const queue = new Queue(name, { connection, prefix });
    queue.on('error', () => {});
    return [name, queue] as const;
  });
  return {
    async active() {
      const found: ActiveJob[] = [];
      for (const [queue, bull] of queues)
        for (const job of await bull.getActive())
          if (job?.id !== undefined) found.push({ queue, id: job.id, name: job.name });
      return found;
    },
    async pending() {
      const names: string[] = [];
      for (const [, bull] of queues) {
        for (const job of await bull.getJobs(['waiting', 'active', 'prioritized', 'delayed'])) {
          if (job?.id === undefined || job.id.startsWith('repeat:')) continue;
          // The spec scheduler's tick waits out its jitter as a job of its own, every second.
          if ((job.data as { trigger?: unknown }).trigger === 'tick') continue;
          names.push(job.name);
        }
      }
      return names;
    },
    async failedAsStalled() {
      const found: ActiveJob[] = [];
      for (const [queue, bull] of queues)
        for (const job of await bull.getFailed())
          if (job?.id !== undefined && /stalled/i.test(job.failedReason ?? ''))
            found.push({ queue, id: job.id, name: job.name });
      return found;
    },
    async close() {
      for (const [, bull] of queues) await bull.close();
      connection.disconnect();
    },
  };
}

/** The text of every page of a space's main content. */
function spaceText(world: CrashWorld, mapping: MappingKey): string {
  const { state } = world.service.emulator;
  const revision = state.revisions[state.spaces[world.spaces[mapping]]?.revision ?? ''];
  const texts: string[] = [];
  const walk = (pages: StoredPage[]) => {
    for (const page of pages) {
      texts.push(`${page.sourcePath ?? page.slug}\n${page.markdown}`);
      walk(page.pages);
    }
  };
  walk(revision?.pages ?? []);
  return texts.join('\n');
}

/** Which of `texts` the ref holds anywhere in its tree. */
async function foundIn(world: CrashWorld, ref: string, texts: readonly string[]): Promise<Set<string>> {
  if (texts.length === 0) return new Set();
  const out = await world.repos.both
    .remoteGit('grep', '-h', '-o', '-F', ...texts.flatMap((text) => ['-e', text]), ref, '--')
    .catch(() => '');
  return new Set(out.split('\n').filter((line) => line !== ''));
}

/** Which service edits the remote holds on its branch, and which only on docsync's conflict branches. */
async function editsInGit(world: CrashWorld, edits: readonly string[]) {
  // for-each-ref matches a pattern whole or up to a slash: the folder, then the prefix.
  const refs = await world.repos.both.remoteGit('for-each-ref', '--format=%(refname)', 'refs/heads/docsync/');
  const branches = refs.split('\n').filter((ref) => ref.startsWith('refs/heads/docsync/conflict-'));
  const onMain = await foundIn(world, 'main', edits);
  const onConflict = new Set<string>();
  for (const branch of branches)
    for (const found of await foundIn(world, branch, edits)) if (!onMain.has(found)) onConflict.add(found);
  return { onMain, onConflict, branches };
}

function specVersions(world: CrashWorld) {
  const { state } = world.service.emulator;
  const spec = Object.values(state.openapiSpecs).find((candidate) => candidate.slug === world.specSlug);
  return Object.values(state.openapiVersions)
    .filter((version) => spec !== undefined && version.specId === spec.id)
    .sort((a, b) => a.seq - b.seq);
}

export interface SettleView {
  settled: boolean;
  /** What is still missing, for a run that does not settle. */
  missing: string[];
}

export async function settleView(world: CrashWorld, queues: BenchQueues): Promise<SettleView> {
  const missing: string[] = [];
  const pending = await queues.pending();
  if (pending.length > 0) missing.push(`jobs pending: ${pending.join(', ')}`);
  const expected = (markers: readonly string[]) => markers.filter((marker) => !world.writtenOff.has(marker));
  for (const mapping of MAPPINGS) {
    const text = spaceText(world, mapping);
    const absent = expected(world.markers.commits[mapping]).filter((marker) => !text.includes(marker));
    if (absent.length > 0) missing.push(`${mapping}: commits not in the space: ${absent.join(', ')}`);
    const open = world.changeRequests(mapping).filter((cr) => cr.status === 'open' || cr.status === 'draft');
    if (open.length > 0)
      missing.push(`${mapping}: change requests open: ${open.map((cr) => cr.number).join(', ')}`);
  }
  // An edit is waited for until git holds it (on the branch or a conflict branch), or until the
  // space no longer holds it either: an export reads the space as it is now, so it is lost for good.
  const edits = expected(world.markers.edits);
  const inGit = await editsInGit(world, edits);
  const inSpace = spaceText(world, 'both');
  const notInGit = edits.filter(
    (marker) => !inGit.onMain.has(marker) && !inGit.onConflict.has(marker) && inSpace.includes(marker),
  );
  if (notInGit.length > 0) missing.push(`service edits not in git yet: ${notInGit.join(', ')}`);
  const last = world.markers.specs.at(-1);
  if (last !== undefined && !(specVersions(world).at(-1)?.text.includes(last) ?? false))
    missing.push(`spec ${last} not uploaded`);
  return { settled: missing.length === 0, missing };
}

export interface Verdict {
  lostCommits: string[];
  lostEdits: string[];
  /** Service edits the space's main content no longer holds (undone there), lost or not. */
  goneFromSpace: string[];
  /** Service edits found only on a docsync/conflict-* branch (not lost, but not on the branch). */
  editsOnConflictBranches: string[];
  conflictBranches: number;
  duplicateChangeRequests: Record<MappingKey, number>;
  changeRequests: Record<MappingKey, { created: number; merged: number; open: number; archived: number }>;
  /** Change requests docsync logged as merged more than once. */
  duplicateMerges: number;
  /** Merges of docsync's change requests that changed nothing in the main content. */
  emptyMerges: number;
  specVersions: number;
  duplicateSpecVersions: number;
}

export async function verdict(world: CrashWorld, lines: readonly DocsyncLine[]): Promise<Verdict> {
  const { state } = world.service.emulator;
  const lostCommits = MAPPINGS.flatMap((mapping) => {
    const text = spaceText(world, mapping);
    return world.markers.commits[mapping].filter((marker) => !text.includes(marker));
  });
  const { onMain, onConflict, branches } = await editsInGit(world, world.markers.edits);
  const mergedLines = new Map<string, number>();
  for (const line of lines)
    if (line.msg === 'change request merged' && typeof line.cr === 'string')
      mergedLines.set(line.cr, (mergedLines.get(line.cr) ?? 0) + 1);
  const pagesKey = (revision: string | undefined) =>
    JSON.stringify(state.revisions[revision ?? '']?.pages ?? null, (key, value) =>
      key === 'createdAt' || key === 'updatedAt' || key === 'id' ? undefined : value,
    );
  let emptyMerges = 0;
  const changeRequests = { both: count(), oneway: count() };
  for (const mapping of MAPPINGS) {
    for (const cr of world.changeRequests(mapping)) {
      const tally = changeRequests[mapping];
      tally.created += 1;
      if (cr.status === 'merged') tally.merged += 1;
      else if (cr.status === 'archived') tally.archived += 1;
      else tally.open += 1;
      const merged = cr.revisionMerged === undefined ? undefined : state.revisions[cr.revisionMerged];
      if (merged !== undefined && pagesKey(merged.id) === pagesKey(merged.parents[0])) emptyMerges += 1;
    }
  }
  const lostEdits = world.markers.edits.filter((marker) => !onMain.has(marker) && !onConflict.has(marker));
  const spaceNow = spaceText(world, 'both');
  const versions = specVersions(world);
  const hashes = new Set(versions.map((version) => version.contentHash));
  return {
    lostCommits,
    lostEdits,
    goneFromSpace: world.markers.edits.filter((marker) => !spaceNow.includes(marker)),
    editsOnConflictBranches: world.markers.edits.filter(
      (marker) => !onMain.has(marker) && onConflict.has(marker),
    ),
    conflictBranches: branches.length,
    duplicateChangeRequests: { both: world.overlapping.both.size, oneway: world.overlapping.oneway.size },
    changeRequests,
    duplicateMerges: [...mergedLines.values()].reduce((sum, times) => sum + times - 1, 0),
    emptyMerges,
    specVersions: versions.length,
    duplicateSpecVersions: versions.length - hashes.size,
  };
}

function count() {
  return { created: 0, merged: 0, open: 0, archived: 0 };
}

/** One digest per part of the end state, to compare two runs of the same workload. */
export async function endState(world: CrashWorld): Promise<Record<string, string>> {
  const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);
  return {
    'space both': digest(spaceText(world, 'both')),
    'space oneway': digest(spaceText(world, 'oneway')),
    'git both docs': (await world.repos.both.remoteGit('rev-parse', 'main:docs')).trim().slice(0, 12),
    'spec last version': digest(specVersions(world).at(-1)?.text ?? ''),
  };
}
