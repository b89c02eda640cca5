import { describe, expect, it } from 'vitest';
import { planSpaceRecovery, type SpaceRecoveryFacts } from '../../../src/recovery/plan-space-recovery.js';

const exported = { sha: 'e'.repeat(40), revision: 'rev-exported' };
const merged = { sha: 'c'.repeat(40) };
const nothing: SpaceRecoveryFacts = {
  revision: 'rev-1',
  exported: undefined,
  merged: undefined,
  mergedAfterExport: false,
  openedOn: undefined,
};

describe('planSpaceRecovery', () => {
  it('finds nothing of docsync for a new mapping: the usual first look', () => {
    expect(planSpaceRecovery(nothing)).toEqual({ kind: 'none' });
    expect(planSpaceRecovery({ ...nothing, openedOn: 'rev-1' })).toEqual({ kind: 'none' });
  });

  it('exports, with no base, a space edited since docsync’s only change request was opened on it', () => {
    expect(planSpaceRecovery({ ...nothing, openedOn: 'rev-0' })).toEqual({ kind: 'moved' });
  });

  it('takes the space at the revision of docsync’s last export as docsync’s own, on that commit', () => {
    expect(planSpaceRecovery({ ...nothing, revision: 'rev-exported', exported, merged })).toEqual({
      kind: 'exported',
      base: exported.sha,
    });
  });

  it('exports a space that moved since the export, on the export’s commit', () => {
    expect(planSpaceRecovery({ ...nothing, revision: 'rev-2', exported, openedOn: 'rev-0' })).toEqual({
      kind: 'changed',
      base: exported.sha,
    });
  });

  it('exports on the merged commit when the merge came after the export, or with no export', () => {
    expect(
      planSpaceRecovery({ ...nothing, revision: 'rev-exported', exported, merged, mergedAfterExport: true }),
    ).toEqual({ kind: 'changed', base: merged.sha });
    expect(planSpaceRecovery({ ...nothing, revision: 'rev-3', merged })).toEqual({
      kind: 'changed',
      base: merged.sha,
    });
  });
});
