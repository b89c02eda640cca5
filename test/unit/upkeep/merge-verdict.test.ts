import { describe, expect, it } from 'vitest';
import { type MergeFacts, type MergePolicy, mergeVerdict } from '../../../src/upkeep/merge-verdict.js';

const policy: MergePolicy = { enabled: true, approvals: 1, resolvedComments: true, noBrokenLinks: true };
const approved = (reviewerId: string, revision = 'rev_2', createdAt = '2026-01-02T00:00:00Z') => ({
  reviewerId,
  reviewerName: `User ${reviewerId}`,
  status: 'approved' as const,
  revision,
  createdAt,
});
const facts = (overrides: Partial<MergeFacts> = {}): MergeFacts => ({
  status: 'open',
  subject: 'docs: update',
  revision: 'rev_2',
  outdated: false,
  reviews: [approved('u1')],
  openComments: 0,
  brokenLinks: 0,
  ...overrides,
});

describe('mergeVerdict', () => {
  it('lets an approved, current, clean change request merge', () => {
    expect(mergeVerdict(policy, facts())).toEqual({ mergeable: true, reasons: [] });
  });

  it('names every reason a change request may not merge', () => {
    const verdict = mergeVerdict(
      { ...policy, approvals: 2, blockSubject: '^WIP' },
      facts({ status: 'draft', subject: 'WIP: docs', outdated: true, openComments: 2, brokenLinks: 3 }),
    );
    expect(verdict.reasons).toEqual([
      'draft',
      'outdated',
      'needs 1 more approval',
      '2 open comments',
      '3 broken links',
      'subject blocked',
    ]);
  });

  it('counts approvals of the current revision from distinct people only', () => {
    const reviews = [
      approved('u1', 'rev_1'),
      approved('u2'),
      approved('u2', 'rev_2', '2026-01-03T00:00:00Z'),
    ];
    expect(mergeVerdict({ ...policy, approvals: 2 }, facts({ reviews })).reasons).toEqual([
      'needs 1 more approval',
    ]);
  });

  it('blocks on a request for changes newer than the same person approval, and clears when they approve again', () => {
    const changes = {
      ...approved('u2'),
      status: 'changes-requested' as const,
      createdAt: '2026-01-03T00:00:00Z',
    };
    expect(mergeVerdict(policy, facts({ reviews: [approved('u1'), changes] })).reasons).toEqual([
      'changes requested by User u2',
    ]);
    const again = approved('u2', 'rev_2', '2026-01-04T00:00:00Z');
    expect(mergeVerdict(policy, facts({ reviews: [approved('u1'), changes, again] })).mergeable).toBe(true);
  });

  it('waits for a link check when broken links block, and ignores comments and links when the policy does', () => {
    expect(mergeVerdict(policy, facts({ brokenLinks: undefined })).reasons).toEqual([
      'links not checked yet',
    ]);
    expect(
      mergeVerdict(
        { ...policy, resolvedComments: false, noBrokenLinks: false },
        facts({ openComments: 4, brokenLinks: 9 }),
      ).mergeable,
    ).toBe(true);
    expect(mergeVerdict({ ...policy, enabled: false }, facts()).reasons).toEqual(['merge disabled']);
  });
});
