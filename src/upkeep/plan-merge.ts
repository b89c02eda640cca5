// What the merge job does with a change request, as pure functions of what it read: record why it
// may not be merged, update it first, only say what it would do (dry run), or merge it; and, once
// the service answered, whether it moved while judged or refused the merge.
import { ApiError } from '../api/api-error.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { MergeVerdict } from './merge-verdict.js';

export type AutoUpdate = MappingConfig['changeRequest']['autoUpdate'];

export type MergePlan =
  /** Kept where /status shows it, with every reason from the verdict. */
  | { kind: 'not-mergeable'; reasons: string[] }
  /** Only its age stands in the way: update it; it is judged again on the next poll. */
  | { kind: 'update-first' }
  | { kind: 'dry-run' }
  | { kind: 'merge' };

/** The reasons kept after an update or a merge that did not end in a merge. */
export const MERGE_REASONS = {
  updateConflicts: ['outdated', 'conflicts with the main content'],
  updated: ['outdated', 'updated: judged again on the next poll'],
  mergeConflicts: ['conflicts with the main content'],
  refused: (status: number) => [`merge refused by the service (${status})`],
} as const;

export function planMerge(verdict: MergeVerdict, autoUpdate: AutoUpdate, dryRun: boolean): MergePlan {
  if (verdict.mergeable) return dryRun ? { kind: 'dry-run' } : { kind: 'merge' };
  // A dry run updates nothing, so an outdated change request is only reported as such.
  const onlyOutdated = verdict.reasons.every((reason) => reason === 'outdated');
  if (!onlyOutdated || autoUpdate === 'never' || dryRun)
    return { kind: 'not-mergeable', reasons: verdict.reasons };
  return { kind: 'update-first' };
}

/** What decides whether a change request changed between two reads. */
export interface ChangeRequestState {
  revision: string;
  updatedAt: string;
  status: string;
}

/** Reviews, comments and links took time to read: only what was judged may be merged. */
export function movedWhileJudged(judged: ChangeRequestState, now: ChangeRequestState): boolean {
  return (
    now.revision !== judged.revision || now.updatedAt !== judged.updatedAt || now.status !== judged.status
  );
}

/**
 * The status with which the service refused a merge it will not do as asked (the change request
 * changed, or cannot be merged as it is): judged again on the next poll, not retried. Undefined
 * for any other failure, which the job's retry rule handles.
 */
export function mergeRefusal(error: unknown): number | undefined {
  if (error instanceof ApiError && (error.status === 409 || error.status === 400)) return error.status;
  return undefined;
}
