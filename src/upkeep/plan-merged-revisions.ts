// What the space poll does about tracked change requests when the space is at a revision docsync
// has no origin for, as a pure function of what was read: which change requests to read (the
// tracked ones not yet settled, and the one the state keeps), and, from their judgements, which
// merged revisions are docsync's own, the export base, and whether the current one is skipped.
import type { MappingState, RevisionOrigin, TrackedChangeRequest } from '../state/mapping-state.js';
import type { MergeJudgement } from './judge-merged-change-request.js';

/**
 * The change requests to read: every tracked one not yet settled, and the one the state keeps when
 * it is not tracked at all (imported before docsync tracked them), known from the last import.
 */
export function changeRequestsToRead(
  tracked: readonly TrackedChangeRequest[],
  state: Pick<MappingState, 'changeRequestId' | 'lastImport'>,
): TrackedChangeRequest[] {
  const open = tracked.filter((entry) => entry.settled !== true);
  const kept = state.changeRequestId;
  if (kept === undefined || tracked.some((entry) => entry.id === kept)) return open;
  const last = state.lastImport?.changeRequest?.id === kept ? state.lastImport : undefined;
  return [
    ...open,
    {
      id: kept,
      at: last?.at ?? new Date(0).toISOString(),
      ...(last?.revision === undefined ? {} : { revision: last.revision }),
      ...(last?.sha === undefined ? {} : { sha: last.sha }),
    },
  ];
}

export interface MergedRevisionsPlan {
  /** Merged revisions holding docsync's content as it was: recorded as docsync's own. */
  origins: Array<{ revision: string; origin: RevisionOrigin }>;
  /**
   * The origin of the space's current revision when it is such a merge, or when docsync's merge job
   * recorded one since the poll looked: skipped, not exported.
   */
  current: RevisionOrigin | undefined;
  /** The commit the merged content descends from: the base the next export compares git with. */
  exportBase: string | undefined;
  /** A tracked change request was merged since: the current revision is no first look at the space. */
  merged: boolean;
  /** Change requests seen merged or closed: not read again. */
  settle: string[];
}

export function planMergedRevisions(
  mapping: string,
  current: string,
  judged: ReadonlyArray<{ id: string; judgement: MergeJudgement }>,
): MergedRevisionsPlan {
  const origins: MergedRevisionsPlan['origins'] = [];
  const settle: string[] = [];
  const merges: Array<Extract<MergeJudgement, { number: number }>> = [];
  let recorded: RevisionOrigin | undefined;
  for (const { id, judgement } of judged) {
    if (judgement.kind === 'open') continue;
    settle.push(id);
    if (judgement.kind === 'recorded' && judgement.revision === current) recorded = judgement.origin;
    if (judgement.kind !== 'unchanged' && judgement.kind !== 'edited') continue;
    merges.push(judgement);
    if (judgement.kind === 'unchanged' && judgement.revision !== undefined)
      origins.push({
        revision: judgement.revision,
        origin: {
          kind: 'merge',
          mapping,
          changeRequest: id,
          ...(judgement.sha === undefined ? {} : { sha: judgement.sha }),
        },
      });
  }
  // The merge that made the current revision decides the base; otherwise the newest merge (docsync
  // opens a change request only once the one before was closed, so a higher number came later).
  const based =
    merges.find((merge) => merge.revision === current) ??
    merges.reduce<(typeof merges)[number] | undefined>(
      (newest, merge) => (newest === undefined || merge.number > newest.number ? merge : newest),
      undefined,
    );
  return {
    origins,
    current: origins.find((entry) => entry.revision === current)?.origin ?? recorded,
    exportBase: based?.sha,
    merged: based !== undefined,
    settle,
  };
}
