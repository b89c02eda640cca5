// Whether a change request docsync put content into was merged with that content as docsync left
// it, whoever merged it: told by content, never by who merged. Its revision at merge time is one
// docsync made (an import or update origin, or the revision docsync last wrote in it) only if nobody
// edited it since: any edit in the service makes a new revision that docsync did not make. When
// that cannot be told, the merge is exported on the imported commit as its base, and the export's
// own content comparison makes no commit for content that still equals that commit's.
import type { ChangeRequest } from '../api/schemas/change-request-schema.js';
import type { RevisionOrigin, TrackedChangeRequest } from '../state/mapping-state.js';

export type ChangeRequestFacts = Pick<ChangeRequest, 'id' | 'number' | 'status' | 'revision'> & {
  revisionMerged?: string | undefined;
};

/** What was read about one tracked change request. */
export interface TrackedFacts {
  tracked: TrackedChangeRequest;
  /** The change request now; undefined when the service no longer has it. */
  changeRequest: ChangeRequestFacts | undefined;
  /** The origin recorded for its revision (once merged: its revision at merge time). */
  revisionOrigin: RevisionOrigin | undefined;
  /** The origin already recorded for the revision its merge made. */
  mergedOrigin: RevisionOrigin | undefined;
}

export type MergeJudgement =
  /** Open or draft: still tracked. */
  | { kind: 'open' }
  /** Archived, or gone from the service: nothing of it reached the space. */
  | { kind: 'closed' }
  /**
   * Its merged revision has an origin already (docsync's merge job, an earlier poll), perhaps
   * recorded since the space poll looked for one: that origin stands.
   */
  | { kind: 'recorded'; revision: string; origin: RevisionOrigin }
  /**
   * Merged; `unchanged`: with docsync's content as docsync left it, so the merged revision is
   * docsync's own; `edited`: after a person changed it (or docsync cannot tell), so the merged
   * revision is exported. Either way the merged content descends from the commit `sha`.
   * `revision` is undefined when the service did not say which revision the merge made.
   */
  | { kind: 'unchanged' | 'edited'; number: number; revision: string | undefined; sha: string | undefined };

export function judgeMergedChangeRequest(mapping: string, facts: TrackedFacts): MergeJudgement {
  const { changeRequest: cr, tracked } = facts;
  if (cr === undefined || cr.status === 'archived') return { kind: 'closed' };
  if (cr.status !== 'merged') return { kind: 'open' };
  if (facts.mergedOrigin !== undefined && cr.revisionMerged !== undefined)
    return { kind: 'recorded', revision: cr.revisionMerged, origin: facts.mergedOrigin };
  const origin = facts.revisionOrigin;
  const ours = origin !== undefined && origin.kind !== 'merge' && origin.mapping === mapping;
  // The origin record expires (or its write was lost): the revision docsync last wrote in it tells too.
  const unchanged = ours || (tracked.revision !== undefined && tracked.revision === cr.revision);
  return {
    kind: unchanged ? 'unchanged' : 'edited',
    number: cr.number,
    revision: cr.revisionMerged,
    sha: (ours ? origin.sha : undefined) ?? tracked.sha,
  };
}
