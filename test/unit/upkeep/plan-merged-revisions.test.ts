import { describe, expect, it } from 'vitest';
import type { MappingState, TrackedChangeRequest } from '../../../src/state/mapping-state.js';
import type { MergeJudgement } from '../../../src/upkeep/judge-merged-change-request.js';
import { changeRequestsToRead, planMergedRevisions } from '../../../src/upkeep/plan-merged-revisions.js';

const S1 = '1'.repeat(40);
const S2 = '2'.repeat(40);
const at = '2024-05-01T00:00:00.000Z';

describe('changeRequestsToRead', () => {
  const tracked: TrackedChangeRequest[] = [
    { id: 'cr_2', revision: 'rev_2', sha: S2, at },
    { id: 'cr_1', at, settled: true },
  ];

  it('reads the tracked change requests not yet settled', () => {
    expect(changeRequestsToRead(tracked, { changeRequestId: 'cr_2' })).toEqual([tracked[0]]);
    expect(changeRequestsToRead(tracked, { changeRequestId: 'cr_1' })).toEqual([tracked[0]]);
  });

  it('adds the change request the state keeps when it was never tracked, with what its last import made', () => {
    const state: Pick<MappingState, 'changeRequestId' | 'lastImport'> = {
      changeRequestId: 'cr_3',
      lastImport: {
        at,
        result: 'imported',
        source: 'git',
        sha: S2,
        changeRequest: { id: 'cr_3', number: 3 },
        revision: 'rev_3',
      },
    };
    expect(changeRequestsToRead([], state)).toEqual([{ id: 'cr_3', at, revision: 'rev_3', sha: S2 }]);
    // An `unchanged` import names no change request: only the origin of its revision can tell.
    const unchanged = {
      changeRequestId: 'cr_3',
      lastImport: { at, result: 'unchanged' as const, source: 'git' as const },
    };
    expect(changeRequestsToRead([], unchanged)).toEqual([{ id: 'cr_3', at: new Date(0).toISOString() }]);
  });

  it('reads nothing when docsync keeps no change request', () => {
    expect(changeRequestsToRead([], {})).toEqual([]);
  });
});

describe('planMergedRevisions', () => {
  const unchanged = (
    number: number,
    revision: string | undefined,
    sha: string | undefined,
  ): MergeJudgement => ({
    kind: 'unchanged',
    number,
    revision,
    sha,
  });

  it('records the merge that made the current revision as docsync’s own, with its commit as the base', () => {
    expect(
      planMergedRevisions('docs', 'rev_m', [{ id: 'cr_1', judgement: unchanged(1, 'rev_m', S1) }]),
    ).toEqual({
      origins: [
        { revision: 'rev_m', origin: { kind: 'merge', mapping: 'docs', changeRequest: 'cr_1', sha: S1 } },
      ],
      current: { kind: 'merge', mapping: 'docs', changeRequest: 'cr_1', sha: S1 },
      exportBase: S1,
      merged: true,
      settle: ['cr_1'],
    });
  });

  it('records a merge an edit in the service already superseded, and exports the edit on its base', () => {
    const plan = planMergedRevisions('docs', 'rev_edit', [
      { id: 'cr_1', judgement: unchanged(1, 'rev_m', S1) },
    ]);
    expect(plan.origins.map((entry) => entry.revision)).toEqual(['rev_m']);
    expect(plan).toMatchObject({ current: undefined, exportBase: S1, merged: true, settle: ['cr_1'] });
  });

  it('exports an edited merge, on the commit it descends from, and records nothing', () => {
    const edited: MergeJudgement = { kind: 'edited', number: 1, revision: 'rev_m', sha: S1 };
    expect(planMergedRevisions('docs', 'rev_m', [{ id: 'cr_1', judgement: edited }])).toEqual({
      origins: [],
      current: undefined,
      exportBase: S1,
      merged: true,
      settle: ['cr_1'],
    });
  });

  it('cannot skip a merge whose revision the service did not name, but still knows its base', () => {
    expect(
      planMergedRevisions('docs', 'rev_x', [{ id: 'cr_1', judgement: unchanged(1, undefined, S1) }]),
    ).toMatchObject({
      origins: [],
      current: undefined,
      exportBase: S1,
      merged: true,
    });
  });

  it('takes the base from the merge that made the current revision, else from the newest merge', () => {
    const older = { id: 'cr_1', judgement: unchanged(1, 'rev_1', S1) };
    const newer = { id: 'cr_2', judgement: unchanged(2, 'rev_2', S2) };
    expect(planMergedRevisions('docs', 'rev_1', [newer, older]).exportBase).toBe(S1);
    expect(planMergedRevisions('docs', 'rev_edit', [older, newer]).exportBase).toBe(S2);
    expect(planMergedRevisions('docs', 'rev_edit', [newer, older]).exportBase).toBe(S2);
    expect(planMergedRevisions('docs', 'rev_edit', [older, newer]).origins).toHaveLength(2);
  });

  it('skips the current revision when docsync’s merge job recorded its origin after the poll looked', () => {
    const origin = { kind: 'merge' as const, mapping: 'docs', sha: S1 };
    expect(
      planMergedRevisions('docs', 'rev_m', [
        { id: 'cr_1', judgement: { kind: 'recorded', revision: 'rev_m', origin } },
      ]),
    ).toEqual({ origins: [], current: origin, exportBase: undefined, merged: false, settle: ['cr_1'] });
  });

  it('settles closed and recorded change requests without a base, and leaves open ones tracked', () => {
    expect(
      planMergedRevisions('docs', 'rev_x', [
        { id: 'cr_1', judgement: { kind: 'closed' } },
        {
          id: 'cr_2',
          judgement: { kind: 'recorded', revision: 'rev_old', origin: { kind: 'merge', mapping: 'docs' } },
        },
        { id: 'cr_3', judgement: { kind: 'open' } },
      ]),
    ).toEqual({
      origins: [],
      current: undefined,
      exportBase: undefined,
      merged: false,
      settle: ['cr_1', 'cr_2'],
    });
  });
});
