// The decisions of one export, as pure functions of what it read, taken before any write: the base
// (the commit the space was last known to equal), whether git's changes since then count, where the
// commit goes (the branch tip, or the base when git changed what the export would change), and,
// once the commit is known, the outcome and what the mapping's state remembers of it.
import type { MappingConfig } from '../config/mapping-schema.js';
import type { MappingState } from '../state/mapping-state.js';

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
  const base =
    facts.pendingConflict !== undefined && facts.pendingIsAncestor
      ? facts.pendingConflict.sha
      : facts.exportBase;
  // With no known base, a two-way mapping cannot tell git's changes from stale space content, so
  // every difference counts; a space-to-git mapping's space is the source of truth.
  return { base, checkGitChanges: base !== undefined || facts.direction === 'both' };
}

export interface ExportParent {
  /** Git changed paths the export would change: the commit goes to a conflict branch. */
  gitMoved: boolean;
  /** The commit the export's commit goes on. */
  parent: string;
}

/** `lost`: git's changes since the base that the space's content would undo. */
export function planExportParent(
  base: string | undefined,
  head: string,
  lost: readonly string[],
): ExportParent {
  const gitMoved = lost.length > 0;
  // On a conflict the commit goes on the base, so that neither side's change is lost; with no base
  // it can only go on the tip, still to a conflict branch.
  return { gitMoved, parent: base !== undefined && gitMoved ? base : head };
}

export interface ExportResultFacts {
  /** The commit holds what its parent already holds in the docs folder (or none was written). */
  same: boolean;
  dryRun: boolean;
  gitMoved: boolean;
  head: string;
  /** The commit written, or the parent when there was nothing to write. */
  sha: string;
  /** The mapping's branch. */
  branch: string;
  revision: string;
}

/** The state an outcome sets besides `lastExport`; `null` removes a field. */
export type ExportStatePatch = {
  exportBase?: string;
  pendingConflict?: NonNullable<MappingState['pendingConflict']> | null;
};

export type ExportResultPlan =
  | { kind: 'unchanged'; state: ExportStatePatch }
  | { kind: 'dry-run' }
  | { kind: 'conflict'; branch: string; state: ExportStatePatch }
  | { kind: 'committed'; branch: string; state: ExportStatePatch };

export function planExportResult(facts: ExportResultFacts): ExportResultPlan {
  // Without a conflict, a branch tip that already holds the space's content equals the space.
  if (facts.same)
    return {
      kind: 'unchanged',
      state: facts.gitMoved ? {} : { exportBase: facts.head, pendingConflict: null },
    };
  if (facts.dryRun) return { kind: 'dry-run' };
  if (facts.gitMoved) {
    const branch = conflictBranch(facts.revision);
    return {
      kind: 'conflict',
      branch,
      state: { pendingConflict: { sha: facts.sha, branch, revision: facts.revision } },
    };
  }
  return { kind: 'committed', branch: facts.branch, state: { exportBase: facts.sha, pendingConflict: null } };
}

/** The branch a conflicting export goes to; a revision id made safe as a ref name part. */
export function conflictBranch(revision: string): string {
  const safe = revision.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 100) || 'revision';
  return `docsync/conflict-${safe}`;
}
