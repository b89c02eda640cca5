// Space to git, one revision: read git's docs folder at the branch tip (what docsync owns there),
// read the space's content (every path checked, all offenders named), write the space's folder over
// git's (the summary kept or edited line by line), and commit only what changes: files with other
// bytes, and owned files the space no longer holds, deleted; every other path of the repository
// untouched, modes kept. The commit carries the `Docsync-Revision` trailer and is pushed (never
// forced). When git changed a path the export would change since the commit the space was last
// known to equal, the commit goes on that base and to a branch `docsync/conflict-<revision>`
// instead: neither side's change is lost. Content git already has makes no commit. An export of
// the revision last exported, over the folder it left in git, reads no content: the space's revision
// and the folder's tree id say that nothing changed (see lastSettledExport).
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import type { GitMirror } from '../git/git-mirror.js';
import type { Logger } from '../log/create-logger.js';
import type { ExportOutcome, MappingState, MappingStateStore } from '../state/mapping-state.js';
import { exportSettingsKey } from './export-settings-key.js';
import { mergeGitChanges } from './merge-git-changes.js';
import {
  type ExportResultPlan,
  lastSettledExport,
  planExportBase,
  planExportPreview,
  planExportResult,
  planExportWrites,
} from './plan-export.js';
import type { FolderChanges } from './plan-folder-commit.js';
import { planSpaceChanges } from './plan-space-changes.js';
import { readGitFolder } from './read-git-folder.js';
import { readSpaceContent } from './read-space-content.js';
import { hashingStore } from './stored-text.js';
import {
  type ConflictCommit,
  commitConflicts,
  commitServiceEdits,
  type ExportWriting,
  exportBaseRef,
  resolvedBaseRef,
  writeNextBase,
} from './write-export-commits.js';

/** Paths listed at most in an outcome kept in state. */
const MAX_LISTED = 50;

export interface ExportDeps {
  api: DocsApiClient;
  mirror: GitMirror;
  state: MappingStateStore;
  log: Logger;
  now: () => Date;
  signal: AbortSignal;
  dryRun: boolean;
}

export async function runExport(deps: ExportDeps, mapping: MappingConfig): Promise<ExportOutcome> {
  const { mirror, signal } = deps;
  const log = deps.log.child({ mapping: mapping.name, space: mapping.space });
  const head = await fetchBranchHead(deps, mapping);
  const settings = exportSettingsKey(mapping);
  const repeat = await repeatSettledExport(deps, mapping, head, settings, log);
  if (repeat !== undefined) return repeat;
  const reading = await readAndPlan(deps, mapping, head, log);
  const { revision, files, contentDir, changes, base } = reading;
  const checkGitChanges = base !== undefined || mapping.direction === 'both';
  const merge = checkGitChanges
    ? await mergeGitChanges(mirror, { base, head, dir: contentDir, changes: changes.changes, signal })
    : { apply: [...changes.changes.keys()], keepGit: [], conflicts: [] };
  const at = deps.now().toISOString();
  const writes = planExportWrites(merge, deps.dryRun);
  if (writes === 'dry-run') {
    log.info(
      {
        revision,
        files,
        apply: merge.apply.length,
        conflicts: merge.conflicts,
        ...planExportPreview(merge, changes.changes),
      },
      'dry run: export would be committed',
    );
    return { at, result: 'dry-run', revision, files };
  }
  // Every commit is made in the mirror first; pushes come last, after the state they lead to is
  // written ahead (see adoptExportAhead).
  const writing: ExportWriting = { deps, mapping, reading, head, merge, writes };
  const committed = await commitServiceEdits(writing);
  const tip = committed ?? head;
  const conflicted = await commitConflicts(writing);
  const { nextBase, resolvedBase } = await writeNextBase(writing, tip, conflicted.conflict, log);
  const plan = planExportResult({
    committed,
    conflict: conflicted.conflict,
    branch: mapping.git.branch,
    revision,
    base: nextBase,
    resolvedBase,
    conflictParent: nextBase === tip ? undefined : conflicted.conflictParent,
  });
  // What lets the next export of this revision return early: the folder the branch holds after this
  // one (none after a conflict, whose branch waits for a person), its settings and base.
  const tree =
    plan.kind === 'conflict' || deps.dryRun ? undefined : await mirror.treeHash(tip, mapping.git.dir, signal);
  const settled = tree === undefined ? {} : { tree, settings, base: plan.state.exportBase };
  return await settleExport(deps, writing, log, { at, plan, settled, committed, conflicted });
}

/** The mirror fetched, and the mapping's branch tip in it. */
async function fetchBranchHead(deps: ExportDeps, mapping: MappingConfig): Promise<string> {
  await deps.mirror.fetch(deps.signal);
  const { branch } = mapping.git;
  const head = await deps.mirror.resolve(branch, deps.signal);
  if (head === undefined) {
    throw new DocsyncError(
      'BRANCH_NOT_FOUND',
      `branch ${branch} does not exist in the repository of mapping ${mapping.name}`,
    );
  }
  return head;
}

/**
 * The export's outcome: saved as the state (written ahead of the branch's push, so that a stop
 * between them loses nothing), the commits pushed, and logged.
 */
async function settleExport(
  deps: ExportDeps,
  w: ExportWriting,
  log: Logger,
  done: {
    at: string;
    plan: ExportResultPlan;
    settled: { tree?: string; settings?: string; base?: string };
    committed: string | undefined;
    conflicted: ConflictCommit;
  },
): Promise<ExportOutcome> {
  const { mapping, merge } = w;
  const { mirror, signal } = deps;
  const { revision, files } = w.reading;
  const { at, plan, committed, conflicted } = done;
  const kept = merge.keepGit.length === 0 ? {} : { keptFromGit: merge.keepGit.slice(0, MAX_LISTED) };
  if (plan.kind === 'unchanged') {
    const outcome: ExportOutcome = { at, result: 'unchanged', revision, files, ...kept, ...done.settled };
    if (!deps.dryRun)
      await deps.state.update(mapping.name, { lastExport: outcome, ...plan.state, exportAhead: null });
    log.info(
      { revision, keptFromGit: merge.keepGit.length },
      'space content already in git, nothing committed',
    );
    return outcome;
  }
  const outcome: ExportOutcome = {
    at,
    result: plan.kind,
    revision,
    sha: plan.sha,
    branch: plan.branch,
    files,
    ...kept,
    ...done.settled,
    ...(plan.kind === 'conflict'
      ? {
          changedInGit: merge.conflicts.slice(0, MAX_LISTED),
          ...(committed === undefined ? {} : { committed }),
        }
      : {}),
  };
  if (committed !== undefined) {
    await deps.state.update(mapping.name, {
      exportAhead: { sha: committed, lastExport: outcome, ...plan.state },
    });
    await mirror.push(committed, mapping.git.branch, signal);
  }
  const { conflict, pushConflict, conflictAt } = conflicted;
  if (conflict !== undefined && pushConflict) await mirror.push(conflict, conflictAt, signal);
  await deps.state.update(mapping.name, { lastExport: outcome, ...plan.state, exportAhead: null });
  logExport(w, log, plan, committed, conflict);
  return outcome;
}

function logExport(
  w: ExportWriting,
  log: Logger,
  plan: Exclude<ExportResultPlan, { kind: 'unchanged' }>,
  committed: string | undefined,
  conflict: string | undefined,
): void {
  const { merge } = w;
  const { revision, files, base, changes } = w.reading;
  if (plan.kind === 'conflict')
    log.warn(
      {
        revision,
        sha: conflict,
        branch: plan.branch,
        base,
        changedInGit: merge.conflicts,
        committed,
      },
      'git and the space changed the same files: those went to a conflict branch, nothing is lost',
    );
  else
    log.info(
      {
        revision,
        sha: committed,
        branch: plan.branch,
        files,
        written: merge.apply.filter((path) => changes.changes.get(path) !== undefined).length,
        deleted: merge.apply.filter((path) => changes.changes.get(path) === undefined).length,
        keptFromGit: merge.keepGit.length,
      },
      'space edits committed and pushed',
    );
}

/**
 * The export again of the revision last exported, over the folder it left: nothing to read or write.
 * The state decides whether that may be so (lastSettledExport); then one call to the service (the
 * space's revision) and one to git (the folder's tree id at the branch tip) tell. Nothing is saved:
 * the state stays the last export's, its commit included (an import of an older commit reads it to
 * import that commit instead). Undefined when the export has to be read and planned in full.
 */
async function repeatSettledExport(
  deps: ExportDeps,
  mapping: MappingConfig,
  head: string,
  settings: string,
  log: Logger,
): Promise<ExportOutcome | undefined> {
  const { signal } = deps;
  const last = lastSettledExport(await deps.state.get(mapping.name), settings);
  if (last === undefined) return undefined;
  const [space, tree] = await Promise.all([
    deps.api.spaces.get(mapping.space, { signal }),
    deps.mirror.treeHash(head, mapping.git.dir, signal),
  ]);
  if (space.revision !== last.revision || tree !== last.tree) return undefined;
  const { sha: _sha, branch: _branch, ...rest } = last;
  log.info(
    { revision: last.revision, tree },
    'space revision already exported and git folder unchanged, nothing read',
  );
  return { ...rest, at: deps.now().toISOString(), result: 'unchanged' };
}

/** An export read and planned: what it writes, and what the rest of the run needs to know. */
export interface ExportReading {
  revision: string;
  /** Files of the space's folder (pages, files and the summary). */
  files: number;
  /** The docs root in the repository. */
  contentDir: string;
  changes: FolderChanges;
  state: MappingState;
  /** The commit the space was last known to equal, present in the mirror. */
  base: string | undefined;
}

/**
 * Reads git's folder and the space's content and plans the changes. A function of its own so that
 * the space's tree (a hundred thousand pages and the folder written from them) is garbage once it
 * returns: only the changed files' blob ids live on through the commit and the push, their bytes
 * being in the mirror already.
 */
async function readAndPlan(
  deps: ExportDeps,
  mapping: MappingConfig,
  head: string,
  log: Logger,
): Promise<ExportReading> {
  const { mirror, signal } = deps;
  // Git's folder is read while the revision arrives: the plan of the revision needs where the docs
  // root is, what the readme is called, which paths are taken.
  const gitFolder = readGitFolder(mirror, head, mapping, signal);
  const layout = gitFolder.then((folder) => ({
    readme: folder.layout.readme,
    existing: new Set(folder.listing.map((entry) => entry.path)),
  }));
  // Its failure is gitFolder's, reported below: not a second, unhandled one when the revision's
  // read failed first and never awaited it.
  layout.catch(() => undefined);
  // The content goes into the mirror as it is read, but for what git holds at the tip already (what
  // comes before git's folder is listed waits for it). A dry run commits nothing, so it writes
  // nothing either.
  const store = deps.dryRun
    ? hashingStore(head.length)
    : mirror.openBlobWriter({
        hashLength: head.length,
        known: gitFolder.then((folder) => new Set(folder.listing.map((entry) => entry.blob))),
        signal,
      });
  const [atHead, { revision, tree }] = await Promise.all([
    gitFolder,
    readSpaceContent({
      api: deps.api,
      space: mapping.space,
      maxFileBytes: mapping.export.maxFileBytes,
      signal,
      layout,
      store,
    }),
  ]).finally(() => store.close());
  const state = await adoptExportAhead(deps, mapping.name, head, log);
  const pending = state.pendingConflict;
  const planned = planExportBase({
    exportBase: state.exportBase,
    pendingConflict: pending,
    pendingIsAncestor: pending !== undefined && (await mirror.isAncestor(pending.sha, head, signal)),
    direction: mapping.direction,
  });
  // A base the mirror lacks (its data folder was made anew, or another process made it and shared it
  // on the remote) is fetched; one that cannot be had is no base: nothing is known to equal the space.
  const base =
    planned.base !== undefined && (await hasOrFetchBase(mirror, planned.base, mapping.name, signal))
      ? planned.base
      : undefined;
  if (base !== planned.base)
    log.warn({ base: planned.base }, 'export base not in the git mirror, exporting without one');
  // Only a file the space was known to hold (owned at the base) can have been deleted in the
  // service. With no base nothing is deleted: a file the space never held is not the space's to
  // remove, whatever the mapping's direction. The branch tip as the base is the folder read above.
  const atBase =
    base === undefined
      ? undefined
      : base === head
        ? atHead
        : await readGitFolder(mirror, base, mapping, signal);
  const deletable = new Set(atBase?.plan.entries.map((entry) => entry.path));
  const { folder, changes, git } = planSpaceChanges(atHead, tree, mapping, revision.id, deletable);
  return { revision: revision.id, files: folder.size, contentDir: git.contentDir, changes, state, base };
}

/**
 * The state an earlier run of this mapping's export wrote ahead of its push: the state now when its
 * commit reached the branch (the run stopped before saving it), dropped when it did not (the push
 * failed). Without it, a run after such a stop would take docsync's own commit for git's change and
 * send the space's next edit of the same file to a conflict branch.
 */
async function adoptExportAhead(
  deps: ExportDeps,
  mapping: string,
  head: string,
  log: Logger,
): Promise<MappingState> {
  const state = await deps.state.get(mapping);
  const ahead = state.exportAhead;
  if (ahead === undefined || deps.dryRun) return state;
  if (!(await deps.mirror.isAncestor(ahead.sha, head, deps.signal))) {
    await deps.state.update(mapping, { exportAhead: null });
    return { ...state, exportAhead: undefined };
  }
  const { sha, ...patch } = ahead;
  await deps.state.update(mapping, { ...patch, exportAhead: null });
  log.info({ sha, revision: ahead.lastExport.revision }, 'export pushed before a stop, its state saved now');
  return deps.state.get(mapping);
}

/** Whether the mirror has `base`, after fetching the bases docsync's processes share when it lacks it. */
async function hasOrFetchBase(mirror: GitMirror, base: string, mapping: string, signal: AbortSignal) {
  if (await mirror.hasCommit(base, signal)) return true;
  for (const name of [exportBaseRef(mapping), resolvedBaseRef(mapping)])
    await mirror.fetchShared(name, signal);
  return mirror.hasCommit(base, signal);
}
