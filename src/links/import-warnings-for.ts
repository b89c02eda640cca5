// Which import warnings docsync's comment on a change request lists: those of the import that made
// the change request's current revision, as a pure function of the mappings' last imports. Content a
// person changed in the service is not what the import read, so its warnings are not claimed for it.
import type { ImportOutcome, RevisionOrigin } from '../state/mapping-state.js';

/** A warning as the state keeps it: a code a newer docsync added is kept as text. */
export type StoredWarning = NonNullable<ImportOutcome['warnings']>[number];

export interface ImportWarnings {
  /** The first warnings, in the import's order. */
  listed: readonly StoredWarning[];
  /** How many there were in all: the state keeps only the first ones. */
  count: number;
}

export const NO_IMPORT_WARNINGS: ImportWarnings = { listed: [], count: 0 };

/** A mapping of the change request's space: the change request it keeps and its last import. */
export interface MappingImport {
  mapping: string;
  /** The change request docsync keeps for the mapping (state's `changeRequestId`). */
  changeRequestId?: string | undefined;
  lastImport?: ImportOutcome | undefined;
}

export interface CommentedRevision {
  changeRequest: string;
  /** The change request's current revision, which the link check read. */
  revision: string;
  /** Where that revision came from, when docsync made it (state's revision origins). */
  origin?: RevisionOrigin | undefined;
}

export function importWarningsFor(
  imports: readonly MappingImport[],
  target: CommentedRevision,
): ImportWarnings {
  for (const entry of imports) {
    const last = entry.lastImport;
    if (last === undefined || !holdsLastImport(entry, last, target)) continue;
    const listed = last.warnings ?? [];
    return { listed, count: Math.max(last.warningCount ?? 0, listed.length) };
  }
  return NO_IMPORT_WARNINGS;
}

/**
 * Whether the revision holds what the mapping's last import read. The revision that import made
 * (the rule); else docsync's own revision (an import, or its update from the main content, which
 * brings in the main content's changes but no new reading of the folder) in the change request the
 * mapping keeps: docsync only ever imports the newest content there, and an import that found the
 * content unchanged keeps the warnings of the one that sent it, though not its revision.
 */
function holdsLastImport(entry: MappingImport, last: ImportOutcome, target: CommentedRevision): boolean {
  if (last.changeRequest?.id === target.changeRequest && last.revision === target.revision) return true;
  const origin = target.origin;
  if (origin === undefined || origin.mapping !== entry.mapping || origin.kind === 'merge') return false;
  if (origin.changeRequest !== undefined)
    return origin.changeRequest === target.changeRequest && entry.changeRequestId === target.changeRequest;
  // An origin recorded before origins named their change request: the imported commit tells.
  return (
    origin.sha !== undefined && origin.sha === last.sha && last.changeRequest?.id === target.changeRequest
  );
}
