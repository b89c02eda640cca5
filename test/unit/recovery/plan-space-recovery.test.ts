import { describe, expect, it } from 'vitest';
import { planSpaceRecovery } from '../../../src/recovery/plan-space-recovery.js';

const exported = { sha: 'e'.repeat(40), revision: 'rev-exported' };
const merged = { sha: 'c'.repeat(40) };

describe('planSpaceRecovery', () => {
  it('finds nothing of docsync for a new mapping: the usual first look', () => {
    expect(
      planSpaceRecovery({
        revision: 'rev-1',
        exported: undefined,
        merged: undefined,
        mergedAfterExport: false,
      }),
    ).toEqual({ kind: 'none' });
  });

  it('takes the space at the revision of docsync’s last export as docsync’s own, on that commit', () => {
    expect(
      planSpaceRecovery({ revision: 'rev-exported', exported, merged, mergedAfterExport: false }),
    ).toEqual({
      kind: 'exported',
      base: exported.sha,
    });
  });

  it('exports a space that moved since the export, on the export’s commit', () => {
    expect(
      planSpaceRecovery({ revision: 'rev-2', exported, merged: undefined, mergedAfterExport: false }),
    ).toEqual({
      kind: 'changed',
      base: exported.sha,
    });
  });

  it('exports on the merged commit when the merge came after the export, or with no export', () => {
    expect(
      planSpaceRecovery({ revision: 'rev-exported', exported, merged, mergedAfterExport: true }),
    ).toEqual({
      kind: 'changed',
      base: merged.sha,
    });
    expect(
      planSpaceRecovery({ revision: 'rev-3', exported: undefined, merged, mergedAfterExport: false }),
    ).toEqual({
      kind: 'changed',
      base: merged.sha,
    });
  });
});
