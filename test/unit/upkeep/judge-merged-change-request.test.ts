import { describe, expect, it } from 'vitest';
import type { RevisionOrigin, TrackedChangeRequest } from '../../../src/state/mapping-state.js';
import {
  type ChangeRequestFacts,
  judgeMergedChangeRequest,
  type TrackedFacts,
} from '../../../src/upkeep/judge-merged-change-request.js';

const SHA = 'a'.repeat(40);
const tracked: TrackedChangeRequest = {
  id: 'cr_1',
  revision: 'rev_import',
  sha: SHA,
  at: '2024-05-01T00:00:00Z',
};
const merged: ChangeRequestFacts = {
  id: 'cr_1',
  number: 3,
  status: 'merged',
  revision: 'rev_import',
  revisionMerged: 'rev_merged',
};
const importOrigin: RevisionOrigin = { kind: 'import', mapping: 'docs', sha: SHA, changeRequest: 'cr_1' };

const facts = (overrides: Partial<TrackedFacts> = {}): TrackedFacts => ({
  tracked,
  changeRequest: merged,
  revisionOrigin: importOrigin,
  mergedOrigin: undefined,
  ...overrides,
});

describe('judgeMergedChangeRequest', () => {
  it('calls a merge of the revision docsync imported docsync content, whoever merged it', () => {
    expect(judgeMergedChangeRequest('docs', facts())).toEqual({
      kind: 'unchanged',
      number: 3,
      revision: 'rev_merged',
      sha: SHA,
    });
  });

  it('calls a merge of a revision docsync updated docsync content, with the commit the update carried', () => {
    const updated = { ...merged, revision: 'rev_update' };
    const origin: RevisionOrigin = { kind: 'update', mapping: 'docs', sha: 'b'.repeat(40) };
    expect(
      judgeMergedChangeRequest('docs', facts({ changeRequest: updated, revisionOrigin: origin })),
    ).toEqual({
      kind: 'unchanged',
      number: 3,
      revision: 'rev_merged',
      sha: 'b'.repeat(40),
    });
  });

  it('calls a merge after an edit in the service edited, still descending from the imported commit', () => {
    const edited = { ...merged, revision: 'rev_person' };
    expect(
      judgeMergedChangeRequest('docs', facts({ changeRequest: edited, revisionOrigin: undefined })),
    ).toEqual({
      kind: 'edited',
      number: 3,
      revision: 'rev_merged',
      sha: SHA,
    });
  });

  it('tells docsync content by the revision it last wrote when the origin record is gone', () => {
    expect(judgeMergedChangeRequest('docs', facts({ revisionOrigin: undefined }))).toMatchObject({
      kind: 'unchanged',
      sha: SHA,
    });
  });

  it('does not take another mapping’s content, nor a merge origin, as this change request’s', () => {
    for (const revisionOrigin of [
      { ...importOrigin, mapping: 'other' },
      { kind: 'merge' as const, mapping: 'docs', sha: SHA },
    ]) {
      const edited = { ...merged, revision: 'rev_other' };
      expect(judgeMergedChangeRequest('docs', facts({ changeRequest: edited, revisionOrigin })).kind).toBe(
        'edited',
      );
    }
  });

  it('leaves open and draft change requests tracked, and settles archived and deleted ones', () => {
    expect(judgeMergedChangeRequest('docs', facts({ changeRequest: { ...merged, status: 'open' } }))).toEqual(
      {
        kind: 'open',
      },
    );
    expect(
      judgeMergedChangeRequest('docs', facts({ changeRequest: { ...merged, status: 'draft' } })),
    ).toEqual({
      kind: 'open',
    });
    expect(
      judgeMergedChangeRequest('docs', facts({ changeRequest: { ...merged, status: 'archived' } })),
    ).toEqual({ kind: 'closed' });
    expect(judgeMergedChangeRequest('docs', facts({ changeRequest: undefined }))).toEqual({ kind: 'closed' });
  });

  it('leaves a merge whose revision already has an origin to that origin', () => {
    const mergedOrigin: RevisionOrigin = { kind: 'merge', mapping: 'docs', sha: SHA };
    expect(judgeMergedChangeRequest('docs', facts({ mergedOrigin }))).toEqual({
      kind: 'recorded',
      revision: 'rev_merged',
      origin: mergedOrigin,
    });
  });

  it('keeps the judgement when the service does not say which revision the merge made', () => {
    const { revisionMerged: _, ...withoutMerged } = merged;
    expect(judgeMergedChangeRequest('docs', facts({ changeRequest: withoutMerged }))).toEqual({
      kind: 'unchanged',
      number: 3,
      revision: undefined,
      sha: SHA,
    });
  });

  it('has no commit to give for content from a working copy', () => {
    const worktree = { id: 'cr_1', revision: 'rev_import', at: tracked.at };
    expect(
      judgeMergedChangeRequest(
        'docs',
        facts({ tracked: worktree, revisionOrigin: { kind: 'import', mapping: 'docs' } }),
      ),
    ).toMatchObject({ kind: 'unchanged', sha: undefined });
  });
});
