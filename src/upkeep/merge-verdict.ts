// Whether a change request may be merged, as a pure function of what was read about it, with every
// reason it may not: the verdict /status shows and the merge job acts on (always on fresh reads).
import type { MappingConfig } from '../config/mapping-schema.js';

export type MergePolicy = MappingConfig['merge'];

export interface ReviewFact {
  reviewerId: string;
  reviewerName: string;
  status: 'approved' | 'changes-requested';
  revision: string;
  createdAt: string;
}

export interface MergeFacts {
  status: 'draft' | 'open' | 'archived' | 'merged';
  subject: string;
  revision: string;
  outdated: boolean;
  reviews: readonly ReviewFact[];
  /** Open comments, not counting docsync's own link comment. */
  openComments: number;
  /** Broken links found by the last link check of this revision; undefined when none ran yet. */
  brokenLinks: number | undefined;
}

export type MergeVerdict = { mergeable: true; reasons: [] } | { mergeable: false; reasons: string[] };

export function mergeVerdict(policy: MergePolicy, facts: MergeFacts): MergeVerdict {
  const reasons: string[] = [];
  if (!policy.enabled) reasons.push('merge disabled');
  if (facts.status !== 'open') reasons.push(facts.status);
  if (facts.outdated) reasons.push('outdated');
  // Each reviewer's latest word counts: an approval of an older revision no longer does.
  const latest = new Map<string, ReviewFact>();
  for (const review of [...facts.reviews].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt)))
    latest.set(review.reviewerId, review);
  const blocking = [...latest.values()].filter((review) => review.status === 'changes-requested');
  for (const review of blocking) reasons.push(`changes requested by ${review.reviewerName}`);
  const approvals = [...latest.values()].filter(
    (review) => review.status === 'approved' && review.revision === facts.revision,
  ).length;
  const missing = policy.approvals - approvals;
  if (missing > 0) reasons.push(`needs ${missing} more approval${missing === 1 ? '' : 's'}`);
  if (policy.resolvedComments && facts.openComments > 0)
    reasons.push(`${facts.openComments} open comment${facts.openComments === 1 ? '' : 's'}`);
  if (policy.noBrokenLinks) {
    if (facts.brokenLinks === undefined) reasons.push('links not checked yet');
    else if (facts.brokenLinks > 0)
      reasons.push(`${facts.brokenLinks} broken link${facts.brokenLinks === 1 ? '' : 's'}`);
  }
  if (policy.blockSubject !== undefined && new RegExp(policy.blockSubject).test(facts.subject))
    reasons.push('subject blocked');
  return reasons.length === 0 ? { mergeable: true, reasons: [] } : { mergeable: false, reasons };
}
