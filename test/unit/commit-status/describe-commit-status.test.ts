import { describe, expect, it } from 'vitest';
import { MAX_DESCRIPTION_LENGTH } from '../../../src/commit-status/commit-status.js';
import {
  approvalsMissing,
  type CommitStatusFacts,
  describeCommitStatus,
} from '../../../src/commit-status/describe-commit-status.js';

const SHA = 'a'.repeat(40);
const URL = 'https://docs.example.com/app/s/spc/change-requests/4';
const base = { sha: SHA, mapping: 'docs' } as const;

function inChangeRequest(
  change: Partial<NonNullable<CommitStatusFacts['changeRequest']>>,
  event: CommitStatusFacts['event'] = 'links-checked',
): CommitStatusFacts {
  return {
    ...base,
    event,
    changeRequest: {
      number: 4,
      status: 'open',
      url: URL,
      brokenLinks: undefined,
      approvalsMissing: 0,
      ...change,
    },
  };
}

describe('the status of an imported commit', () => {
  it('is pending while importing, unless the import of the commit already finished', () => {
    expect(describeCommitStatus({ ...base, event: 'importing' })).toEqual({
      state: 'pending',
      description: 'importing into the documentation service',
    });
    expect(describeCommitStatus({ ...base, event: 'importing', lastImportedSha: SHA })).toBeUndefined();
    expect(
      describeCommitStatus({ ...base, event: 'importing', lastImportedSha: 'b'.repeat(40) })?.state,
    ).toBe('pending');
  });

  it('says the change request, its broken links and the approvals it needs, linking to it', () => {
    expect(describeCommitStatus(inChangeRequest({ brokenLinks: 2, approvalsMissing: 1 }))).toEqual({
      state: 'success',
      description: 'imported into change request #4 - 2 broken links - needs 1 approval',
      targetUrl: URL,
    });
    expect(
      describeCommitStatus(
        inChangeRequest({ brokenLinks: 3, firstBrokenLink: 'docs/guides/setup.md:12', approvalsMissing: 1 }),
      )?.description,
    ).toBe(
      'imported into change request #4 - 3 broken links (first: docs/guides/setup.md:12) - needs 1 approval',
    );
    expect(describeCommitStatus(inChangeRequest({ brokenLinks: 1 }, 'imported'))?.description).toBe(
      'imported into change request #4 - 1 broken link',
    );
    expect(describeCommitStatus(inChangeRequest({ brokenLinks: 0, approvalsMissing: 2 }))?.description).toBe(
      'imported into change request #4 - no broken link - needs 2 approvals',
    );
    expect(describeCommitStatus(inChangeRequest({}, 'imported'))?.description).toBe(
      'imported into change request #4 - checking links',
    );
  });

  it('says merged once the change request is, whichever event asked, and a failure when it was closed', () => {
    expect(describeCommitStatus(inChangeRequest({ status: 'merged', brokenLinks: 3 }, 'merged'))).toEqual({
      state: 'success',
      description: 'merged (change request #4)',
      targetUrl: URL,
    });
    expect(describeCommitStatus(inChangeRequest({ status: 'merged' }, 'imported'))?.description).toBe(
      'merged (change request #4)',
    );
    expect(describeCommitStatus(inChangeRequest({ status: 'archived' }))).toEqual({
      state: 'failure',
      description: 'change request #4 closed without merging',
      targetUrl: URL,
    });
  });

  it('fails with the code of a failed import, and names the command that lifts a pause', () => {
    expect(describeCommitStatus({ ...base, event: 'failed', failureCode: 'CONTENT_INVALID' })).toEqual({
      state: 'failure',
      description: 'import failed (CONTENT_INVALID): see docsync status',
    });
    expect(describeCommitStatus({ ...base, event: 'paused' })).toEqual({
      state: 'error',
      description: 'mapping docs paused (the branch was force-pushed): run docsync resume docs',
    });
    expect(describeCommitStatus({ ...base, event: 'deferred' })?.state).toBe('pending');
    expect(describeCommitStatus({ ...base, event: 'superseded' })?.state).toBe('success');
    expect(describeCommitStatus({ ...base, event: 'imported' })).toEqual({
      state: 'success',
      description: 'imported: the content was already there',
    });
  });

  it('keeps a description within the git host limit', () => {
    const long = describeCommitStatus({ ...base, mapping: 'm'.repeat(64), event: 'paused' });
    expect(long?.description.length).toBe(MAX_DESCRIPTION_LENGTH);
    expect(long?.description.endsWith('…')).toBe(true);
  });
});

describe('approvals still needed', () => {
  const at = (minute: number) => `2025-01-01T12:${String(minute).padStart(2, '0')}:00Z`;
  it("count each reviewer's latest word, and approvals of the current revision only", () => {
    expect(approvalsMissing(1, [], 'r2')).toBe(1);
    expect(
      approvalsMissing(
        2,
        [
          { reviewerId: 'u1', status: 'approved', revision: 'r2', createdAt: at(1) },
          { reviewerId: 'u2', status: 'approved', revision: 'r1', createdAt: at(2) },
        ],
        'r2',
      ),
    ).toBe(1);
    expect(
      approvalsMissing(
        1,
        [
          { reviewerId: 'u1', status: 'approved', revision: 'r2', createdAt: at(1) },
          { reviewerId: 'u1', status: 'changes-requested', revision: 'r2', createdAt: at(3) },
        ],
        'r2',
      ),
    ).toBe(1);
    expect(
      approvalsMissing(1, [{ reviewerId: 'u1', status: 'approved', revision: 'r2', createdAt: at(1) }], 'r2'),
    ).toBe(0);
  });
});
