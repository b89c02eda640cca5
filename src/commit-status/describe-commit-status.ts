// The status of an imported commit, as a pure function of the event that queued the report and of
// what was read when it runs: the change request's state, its last link check and its approvals.
// Reading the facts when the report runs, not when it was queued, keeps a report retried late from
// posting an older truth over a newer one. Undefined: nothing to post (the import of the commit
// finished before its `importing` report ran).

import type { CommitStatusEvent } from '../../jobs/report-commit-status/report-commit-status-kind.js';
import { type CommitStatus, fitDescription } from './commit-status.js';

export interface CommitStatusFacts {
  event: CommitStatusEvent;
  sha: string;
  mapping: string;
  /** The commit the mapping's last finished import holds. */
  lastImportedSha?: string | undefined;
  /** The import failure's code, for `failed`. */
  failureCode?: string | undefined;
  changeRequest?:
    | {
        number: number;
        status: 'draft' | 'open' | 'archived' | 'merged';
        url: string;
        /** Broken links of the change request's current revision; undefined until checked. */
        brokenLinks: number | undefined;
        /** Where the first of them is written in git (`docs/setup.md:12`), when known. */
        firstBrokenLink?: string | undefined;
        /** Approvals the mapping's merge policy still needs; 0 when it needs none or merges nothing. */
        approvalsMissing: number;
      }
    | undefined;
}

export function describeCommitStatus(facts: CommitStatusFacts): CommitStatus | undefined {
  const status = statusOf(facts);
  return status === undefined ? undefined : { ...status, description: fitDescription(status.description) };
}

function statusOf(facts: CommitStatusFacts): CommitStatus | undefined {
  switch (facts.event) {
    case 'importing':
      if (facts.lastImportedSha === facts.sha) return undefined;
      return { state: 'pending', description: 'importing into the documentation service' };
    case 'deferred':
      return { state: 'pending', description: 'waiting: edits made in the service go to git first' };
    case 'paused':
      return {
        state: 'error',
        description: `mapping ${facts.mapping} paused (the branch was force-pushed): run docsync resume ${facts.mapping}`,
      };
    case 'superseded':
      return { state: 'success', description: 'imported with a newer commit of the branch' };
    case 'failed':
      return {
        state: 'failure',
        description: `import failed${facts.failureCode === undefined ? '' : ` (${facts.failureCode})`}: see docsync status`,
      };
    default:
      return changeRequestStatus(facts.changeRequest);
  }
}

function changeRequestStatus(cr: CommitStatusFacts['changeRequest']): CommitStatus {
  if (cr === undefined) return { state: 'success', description: 'imported: the content was already there' };
  const at = { targetUrl: cr.url };
  switch (cr.status) {
    case 'merged':
      return { state: 'success', description: `merged (change request #${cr.number})`, ...at };
    case 'archived':
      return { state: 'failure', description: `change request #${cr.number} closed without merging`, ...at };
    default: {
      const parts = [`imported into change request #${cr.number}`];
      if (cr.brokenLinks === undefined) parts.push('checking links');
      else if (cr.brokenLinks > 0)
        parts.push(
          `${plural(cr.brokenLinks, 'broken link')}${cr.firstBrokenLink === undefined ? '' : ` (first: ${cr.firstBrokenLink})`}`,
        );
      else parts.push('no broken link');
      if (cr.approvalsMissing > 0) parts.push(`needs ${plural(cr.approvalsMissing, 'approval')}`);
      return { state: 'success', description: parts.join(' - '), ...at };
    }
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A review as the approval count reads it. */
export interface ApprovalReview {
  reviewerId: string;
  status: 'approved' | 'changes-requested';
  revision: string;
  createdAt: string;
}

/**
 * Approvals still needed, by the rule of the merge verdict (src/upkeep/merge-verdict.ts): each
 * reviewer's latest word counts, and an approval counts only for the revision it was given to.
 */
export function approvalsMissing(
  required: number,
  reviews: readonly ApprovalReview[],
  revision: string,
): number {
  const latest = new Map<string, ApprovalReview>();
  for (const review of [...reviews].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt)))
    latest.set(review.reviewerId, review);
  const approvals = [...latest.values()].filter(
    (review) => review.status === 'approved' && review.revision === revision,
  ).length;
  return Math.max(0, required - approvals);
}
