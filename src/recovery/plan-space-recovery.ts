// What the space poll does at its first look at a space with no state (Redis lost it, or the mapping
// is new), from what git and the service still hold: docsync's newest export on the branch (its
// `Docsync-Revision` trailer names the revision it wrote) and docsync's newest merged change
// request (its subject names the commit imported). Pure.

export interface SpaceRecoveryFacts {
  /** The space's current revision. */
  revision: string;
  /** docsync's newest commit on the branch that touched the folder, and the revision it exported. */
  exported: { sha: string; revision: string } | undefined;
  /** The commit docsync's newest merged change request imported. */
  merged: { sha: string } | undefined;
  /** With both: whether the merged commit came after the export (it contains the export's commit). */
  mergedAfterExport: boolean;
  /** The space's revision docsync's change request still open was opened on. */
  openedOn: string | undefined;
}

export type SpaceRecovery =
  /** Nothing of docsync's: a new mapping, whose first look is the usual one (a baseline, two-way). */
  | { kind: 'none' }
  /** The space is at the revision docsync last exported: that export's commit is the base. */
  | { kind: 'exported'; base: string }
  /**
   * The space moved since docsync's last export or merge: exported, with that commit as the base,
   * so that edits made while no docsync watched reach git and git's own changes stay git's. The
   * export compares content: a space still equal to the base commits nothing.
   */
  | { kind: 'changed'; base: string }
  /**
   * Nothing of docsync's reached the space, but its change request was opened on another revision
   * than the space's now: someone edited the space since, perhaps while no docsync watched. Exported
   * with no base (files that differ from git go to a conflict branch): nothing lost, where a
   * baseline would take the edit for the space's old content.
   */
  | { kind: 'moved' };

export function planSpaceRecovery(facts: SpaceRecoveryFacts): SpaceRecovery {
  const { exported, merged } = facts;
  // A merge after the export (or with no export at all): the space descends from its commit.
  if (merged !== undefined && (exported === undefined || facts.mergedAfterExport))
    return { kind: 'changed', base: merged.sha };
  if (exported === undefined)
    return facts.openedOn === undefined || facts.openedOn === facts.revision
      ? { kind: 'none' }
      : { kind: 'moved' };
  return exported.revision === facts.revision
    ? { kind: 'exported', base: exported.sha }
    : { kind: 'changed', base: exported.sha };
}
