import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/api-error.js';
import { DocsyncError } from '../../../src/errors/docsync-error.js';
import type { MergeVerdict } from '../../../src/upkeep/merge-verdict.js';
import { mergeRefusal, movedWhileJudged, planMerge } from '../../../src/upkeep/plan-merge.js';

const mergeable: MergeVerdict = { mergeable: true, reasons: [] };
const onlyOutdated: MergeVerdict = { mergeable: false, reasons: ['outdated'] };
const outdatedAndUnapproved: MergeVerdict = {
  mergeable: false,
  reasons: ['outdated', 'needs 1 more approval'],
};

const httpError = (status: number) =>
  new ApiError({
    code: 'API_HTTP_ERROR',
    message: `POST /spaces/s/change-requests/1/merge answered ${status}`,
    method: 'POST',
    path: '/spaces/s/change-requests/1/merge',
    status,
  });

describe('planMerge', () => {
  it('merges a mergeable change request, or only says so in a dry run', () => {
    expect(planMerge(mergeable, 'before-merge', false)).toEqual({ kind: 'merge' });
    expect(planMerge(mergeable, 'never', false)).toEqual({ kind: 'merge' });
    expect(planMerge(mergeable, 'before-merge', true)).toEqual({ kind: 'dry-run' });
  });

  it('records every reason when more than its age stands in the way', () => {
    expect(planMerge(outdatedAndUnapproved, 'always', false)).toEqual({
      kind: 'not-mergeable',
      reasons: ['outdated', 'needs 1 more approval'],
    });
    expect(planMerge({ mergeable: false, reasons: ['draft'] }, 'before-merge', false)).toEqual({
      kind: 'not-mergeable',
      reasons: ['draft'],
    });
  });

  it('updates first a change request that is only outdated, when the policy allows it', () => {
    expect(planMerge(onlyOutdated, 'before-merge', false)).toEqual({ kind: 'update-first' });
    expect(planMerge(onlyOutdated, 'always', false)).toEqual({ kind: 'update-first' });
  });

  it('only records an outdated change request when the policy never updates, or in a dry run', () => {
    expect(planMerge(onlyOutdated, 'never', false)).toEqual({ kind: 'not-mergeable', reasons: ['outdated'] });
    expect(planMerge(onlyOutdated, 'before-merge', true)).toEqual({
      kind: 'not-mergeable',
      reasons: ['outdated'],
    });
  });
});

describe('movedWhileJudged', () => {
  const judged = { revision: 'rev_2', updatedAt: '2026-01-02T00:00:00Z', status: 'open' };

  it('lets the merge go on when nothing changed since the change request was judged', () => {
    expect(movedWhileJudged(judged, { ...judged })).toBe(false);
  });

  it('stops the merge when the revision, the update time or the status changed', () => {
    expect(movedWhileJudged(judged, { ...judged, revision: 'rev_3' })).toBe(true);
    expect(movedWhileJudged(judged, { ...judged, updatedAt: '2026-01-02T00:00:01Z' })).toBe(true);
    expect(movedWhileJudged(judged, { ...judged, status: 'draft' })).toBe(true);
  });
});

describe('mergeRefusal', () => {
  it('names the status when the service refuses the merge as asked (409, 400)', () => {
    expect(mergeRefusal(httpError(409))).toBe(409);
    expect(mergeRefusal(httpError(400))).toBe(400);
  });

  it('leaves every other failure to the retry rule', () => {
    expect(mergeRefusal(httpError(500))).toBeUndefined();
    expect(mergeRefusal(httpError(404))).toBeUndefined();
    expect(mergeRefusal(new DocsyncError('API_HTTP_ERROR', 'not an ApiError'))).toBeUndefined();
    expect(mergeRefusal(new Error('409'))).toBeUndefined();
  });
});
