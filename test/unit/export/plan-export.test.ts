import { describe, expect, it } from 'vitest';
import {
  conflictBranch,
  type ExportBaseFacts,
  planExportBase,
  planExportParent,
  planExportResult,
} from '../../../src/export/plan-export.js';

const pending = { sha: 'c0ffee', branch: 'docsync/conflict-rev_1', revision: 'rev_1' };
const baseFacts = (overrides: Partial<ExportBaseFacts> = {}): ExportBaseFacts => ({
  exportBase: 'base1',
  pendingConflict: undefined,
  pendingIsAncestor: false,
  direction: 'space-to-git',
  ...overrides,
});
const result = {
  same: false,
  dryRun: false,
  gitMoved: false,
  head: 'head1',
  sha: 'new1',
  branch: 'main',
  revision: 'rev_2',
};

describe('planExportBase', () => {
  it('starts from the last export and reads what git changed since', () => {
    expect(planExportBase(baseFacts())).toEqual({ base: 'base1', checkGitChanges: true });
  });

  it('starts from a conflict commit once a person merged it into the branch', () => {
    expect(planExportBase(baseFacts({ pendingConflict: pending, pendingIsAncestor: true }))).toEqual({
      base: 'c0ffee',
      checkGitChanges: true,
    });
    expect(planExportBase(baseFacts({ pendingConflict: pending, pendingIsAncestor: false }))).toEqual({
      base: 'base1',
      checkGitChanges: true,
    });
  });

  it('with no base, counts git as changed only for a two-way mapping', () => {
    expect(planExportBase(baseFacts({ exportBase: undefined }))).toEqual({
      base: undefined,
      checkGitChanges: false,
    });
    expect(planExportBase(baseFacts({ exportBase: undefined, direction: 'both' }))).toEqual({
      base: undefined,
      checkGitChanges: true,
    });
  });
});

describe('planExportParent', () => {
  it('commits on the branch tip when git changed nothing the export changes', () => {
    expect(planExportParent('base1', 'head1', [])).toEqual({ gitMoved: false, parent: 'head1' });
    expect(planExportParent(undefined, 'head1', [])).toEqual({ gitMoved: false, parent: 'head1' });
  });

  it('commits on the base when git changed a path the export changes', () => {
    expect(planExportParent('base1', 'head1', ['docs/a.md'])).toEqual({ gitMoved: true, parent: 'base1' });
  });

  it('with no base, a conflict still goes on the tip', () => {
    expect(planExportParent(undefined, 'head1', ['docs/a.md'])).toEqual({ gitMoved: true, parent: 'head1' });
  });
});

describe('planExportResult', () => {
  it('commits and pushes to the branch, which then equals the space', () => {
    expect(planExportResult(result)).toEqual({
      kind: 'committed',
      branch: 'main',
      state: { exportBase: 'new1', pendingConflict: null },
    });
  });

  it('sends the commit to a conflict branch when git moved, and remembers it as pending', () => {
    expect(planExportResult({ ...result, gitMoved: true })).toEqual({
      kind: 'conflict',
      branch: 'docsync/conflict-rev_2',
      state: { pendingConflict: { sha: 'new1', branch: 'docsync/conflict-rev_2', revision: 'rev_2' } },
    });
  });

  it('commits nothing for content git has; the tip is the new base only without a conflict', () => {
    expect(planExportResult({ ...result, same: true })).toEqual({
      kind: 'unchanged',
      state: { exportBase: 'head1', pendingConflict: null },
    });
    expect(planExportResult({ ...result, same: true, gitMoved: true })).toEqual({
      kind: 'unchanged',
      state: {},
    });
    expect(planExportResult({ ...result, same: true, dryRun: true }).kind).toBe('unchanged');
  });

  it('writes nothing in a dry run that would commit', () => {
    expect(planExportResult({ ...result, dryRun: true })).toEqual({ kind: 'dry-run' });
    expect(planExportResult({ ...result, dryRun: true, gitMoved: true })).toEqual({ kind: 'dry-run' });
  });
});

describe('conflictBranch', () => {
  it('makes a revision id safe as a ref name part', () => {
    expect(conflictBranch('rev_2')).toBe('docsync/conflict-rev_2');
    expect(conflictBranch('a/b:c..d')).toBe('docsync/conflict-a-b-c--d');
    expect(conflictBranch('x'.repeat(150))).toBe(`docsync/conflict-${'x'.repeat(100)}`);
    expect(conflictBranch('')).toBe('docsync/conflict-revision');
  });
});
