// The decisions of one export, as pure functions of what it read: the base (the commit the space was
// last known to equal), whether git's changes since then count, whether anything is written, and,
// once the commits are known, the outcome and what the mapping's state remembers of it. Which file
// goes where is planFileMerge's.
import type { MappingConfig } from '../config/mapping-schema.js';
import type { ExportOutcome, MappingState } from '../state/mapping-state.js';
import type { FileMerge } from './plan-file-merge.js';

export interface ExportBaseFacts {
  exportBase: MappingState['exportBase'];
  pendingConflict: MappingState['pendingConflict'];
  /** Whether the pending conflict's commit is in the branch: a person merged the conflict branch. */
  pendingIsAncestor: boolean;
  direction: MappingConfig['direction'];
}

export interface ExportBase {
  base: string | undefined;
  /** Whether git's changes to the folder since the base are read: they may be lost otherwise. */
  checkGitChanges: boolean;
}

export function planExportBase(facts: ExportBaseFacts): ExportBase {
  const pending = facts.pendingConflict;
  // A merged conflict branch: the space's content is now in the branch, and the commit that equals
  // it whole is the base (older state kept only the conflict commit itself).
  const base =
    pending !== undefined && facts.pendingIsAncestor
      ? (pending.resolvedBase ?? pending.sha)
      : facts.exportBase;
  // With no known base, a two-way mapping cannot tell git's changes from stale space content, so
  // every difference counts; a space-to-git mapping's space is the source of truth.
  return { base, checkGitChanges: base !== undefined || facts.direction === 'both' };
}

/** What an export writes, decided before any write. */
export type ExportWrites = 'unchanged' | 'dry-run' | 'write';

export function planExportWrites(merge: FileMerge, dryRun: boolean): ExportWrites {
  if (merge.apply.length === 0 && merge.conflicts.length === 0) return 'unchanged';
  return dryRun ? 'dry-run' : 'write';
}

/** What a dry-run export would do to one file of the folder. */
export type ExportFileAction = 'write' | 'delete' | 'keep-git' | 'conflict';

/** Files a dry run names in its log line; the counts give the rest. */
export const DRY_RUN_LISTED_FILES = 50;

/**
 * A dry-run export's preview, per file: what the commit would write or delete, what git's version
 * keeps, and what would go to a conflict branch, counted (`actions`) and named for the first
 * `listed` paths (`write guides/new.md`), as the fields of its log line. `changes` maps each changed
 * path to the space's bytes, or undefined where the space no longer holds the file.
 */
export function planExportPreview(
  merge: FileMerge,
  changes: ReadonlyMap<string, unknown>,
  listed = DRY_RUN_LISTED_FILES,
): { actions: Record<ExportFileAction, number>; firstFiles: string[] } {
  const entry = (path: string, action: ExportFileAction) => ({ path, action });
  const files = [
    ...merge.apply.map((path) => entry(path, changes.get(path) === undefined ? 'delete' : 'write')),
    ...merge.keepGit.map((path) => entry(path, 'keep-git')),
    ...merge.conflicts.map((path) => entry(path, 'conflict')),
  ];
  const actions: Record<ExportFileAction, number> = { write: 0, delete: 0, 'keep-git': 0, conflict: 0 };
  for (const file of files) actions[file.action] += 1;
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { actions, firstFiles: files.slice(0, listed).map((file) => `${file.action} ${file.path}`) };
}

export interface ExportResultFacts {
  /** The commit of the service's changes pushed to the mapping's branch, if one was. */
  committed: string | undefined;
  /** The commit of the conflicting files, on the base, if there were any. */
  conflict: string | undefined;
  /** The mapping's branch. */
  branch: string;
  revision: string;
  /**
   * The next export's base: the commit whose docs folder equals the space's content, but for the
   * files in conflict, which keep the base's version (so they stay a conflict until resolved).
   */
  base: string;
  /** The commit equal to the space's content in every file: the base once the conflict is merged. */
  resolvedBase: string | undefined;
  /**
   * When the base is a commit docsync made (the space differs from the branch in some files): the
   * last branch commit the space equalled in every file, where conflict commits go.
   */
  conflictParent: string | undefined;
}

/** The state an outcome sets besides `lastExport`; `null` removes a field. */
export type ExportStatePatch = {
  exportBase: string;
  conflictParent: string | null;
  pendingConflict: NonNullable<MappingState['pendingConflict']> | null;
};

export type ExportResultPlan =
  | { kind: 'unchanged'; state: ExportStatePatch }
  | { kind: 'conflict'; sha: string; branch: string; state: ExportStatePatch }
  | { kind: 'committed'; sha: string; branch: string; state: ExportStatePatch };

export function planExportResult(facts: ExportResultFacts): ExportResultPlan {
  if (facts.conflict !== undefined) {
    const branch = conflictBranch(facts.revision);
    return {
      kind: 'conflict',
      sha: facts.conflict,
      branch,
      state: {
        exportBase: facts.base,
        conflictParent: facts.conflictParent ?? null,
        pendingConflict: {
          sha: facts.conflict,
          branch,
          revision: facts.revision,
          resolvedBase: facts.resolvedBase ?? facts.conflict,
        },
      },
    };
  }
  // No file in conflict now: an older conflict branch was resolved, in git or in the space.
  const state = {
    exportBase: facts.base,
    conflictParent: facts.conflictParent ?? null,
    pendingConflict: null,
  };
  return facts.committed === undefined
    ? { kind: 'unchanged', state }
    : { kind: 'committed', sha: facts.committed, branch: facts.branch, state };
}

/** The last export, as the state holds it when an export of the same again may be skipped. */
export type SettledExport = ExportOutcome & { tree: string };

/**
 * The last export, when repeating it could change nothing but its time, provided the space is still
 * at its revision and the mapping's folder at the branch tip still has its tree (the caller checks
 * both, with one call to the service and one to git): its files were committed or found in git
 * (not a conflict, nor a dry run) under the same settings, no export stopped between its push and
 * its state since (`exportAhead`), no conflict branch waits to be merged, and nothing else moved the
 * export base. Any other state is read in full, a state written before these fields were kept too.
 */
export function lastSettledExport(
  state: Pick<MappingState, 'lastExport' | 'exportAhead' | 'pendingConflict' | 'exportBase'>,
  settings: string,
): SettledExport | undefined {
  const last = state.lastExport;
  if (last === undefined || (last.result !== 'committed' && last.result !== 'unchanged')) return undefined;
  if (last.tree === undefined || last.settings !== settings) return undefined;
  if (state.exportAhead !== undefined || state.pendingConflict !== undefined) return undefined;
  if (last.base === undefined || last.base !== state.exportBase) return undefined;
  return { ...last, tree: last.tree };
}

/** The branch a conflicting export goes to; a revision id made safe as a ref name part. */
export function conflictBranch(revision: string): string {
  const safe = revision.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 100) || 'revision';
  return `docsync/conflict-${safe}`;
}
