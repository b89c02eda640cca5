import { describe, expect, it } from 'vitest';
import { mappingSchema } from '../../../src/config/mapping-schema.js';
import { exportSettingsKey } from '../../../src/export/export-settings-key.js';
import {
  conflictBranch,
  type ExportBaseFacts,
  lastSettledExport,
  planExportBase,
  planExportResult,
  planExportWrites,
} from '../../../src/export/plan-export.js';

const pending = { sha: 'c0ffee', branch: 'docsync/conflict-rev_1', revision: 'rev_1' };
const baseFacts = (overrides: Partial<ExportBaseFacts> = {}): ExportBaseFacts => ({
  exportBase: 'base1',
  pendingConflict: undefined,
  pendingIsAncestor: false,
  direction: 'space-to-git',
  ...overrides,
});

describe('planExportBase', () => {
  it('starts from the last export and reads what git changed since', () => {
    expect(planExportBase(baseFacts())).toEqual({ base: 'base1', checkGitChanges: true });
  });

  it('starts from the resolved base of a conflict once a person merged its branch', () => {
    expect(
      planExportBase(
        baseFacts({ pendingConflict: { ...pending, resolvedBase: 'r1' }, pendingIsAncestor: true }),
      ),
    ).toEqual({ base: 'r1', checkGitChanges: true });
    // State written before resolved bases: the conflict commit itself.
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

describe('planExportWrites', () => {
  const merge = { apply: [] as string[], keepGit: [] as string[], conflicts: [] as string[] };
  it("writes nothing when no file takes the space's version, whatever git kept", () => {
    expect(planExportWrites({ ...merge, keepGit: ['a.md'] }, false)).toBe('unchanged');
    expect(planExportWrites(merge, true)).toBe('unchanged');
  });

  it('writes applied and conflicting files, or only says so in a dry run', () => {
    expect(planExportWrites({ ...merge, apply: ['a.md'] }, false)).toBe('write');
    expect(planExportWrites({ ...merge, conflicts: ['a.md'] }, false)).toBe('write');
    expect(planExportWrites({ ...merge, conflicts: ['a.md'] }, true)).toBe('dry-run');
  });
});

describe('planExportResult', () => {
  const result = {
    committed: undefined,
    conflict: undefined,
    branch: 'main',
    revision: 'rev_2',
    base: 'head1',
    resolvedBase: undefined,
    conflictParent: undefined,
  };

  it('commits to the branch and makes the next base what the space now equals', () => {
    expect(planExportResult({ ...result, committed: 'new1', base: 'new1' })).toEqual({
      kind: 'committed',
      sha: 'new1',
      branch: 'main',
      state: { exportBase: 'new1', conflictParent: null, pendingConflict: null },
    });
  });

  it('sends a conflict to its branch and remembers the base that resolves it', () => {
    expect(
      planExportResult({
        ...result,
        committed: 'new1',
        conflict: 'c1',
        base: 'b1',
        resolvedBase: 'r1',
        conflictParent: 'old1',
      }),
    ).toEqual({
      kind: 'conflict',
      sha: 'c1',
      branch: 'docsync/conflict-rev_2',
      state: {
        exportBase: 'b1',
        conflictParent: 'old1',
        pendingConflict: {
          sha: 'c1',
          branch: 'docsync/conflict-rev_2',
          revision: 'rev_2',
          resolvedBase: 'r1',
        },
      },
    });
  });

  it('with nothing to commit, moves the base and clears a conflict resolved since', () => {
    expect(planExportResult(result)).toEqual({
      kind: 'unchanged',
      state: { exportBase: 'head1', conflictParent: null, pendingConflict: null },
    });
    // Git kept a file the space does not hold: the base is docsync's, conflicts go on the older commit.
    expect(planExportResult({ ...result, base: 'x1', conflictParent: 'old1' }).state).toEqual({
      exportBase: 'x1',
      conflictParent: 'old1',
      pendingConflict: null,
    });
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

describe('lastSettledExport', () => {
  const settled = {
    at: '2025-01-01T00:00:00.000Z',
    result: 'committed' as const,
    revision: 'rev_2',
    sha: 'c2',
    branch: 'main',
    files: 3,
    tree: 't2',
    settings: 'k1',
    base: 'c2',
  };
  const state = { lastExport: settled, exportBase: 'c2' };

  it('is the last export when it was committed or found in git and nothing moved since', () => {
    expect(lastSettledExport(state, 'k1')).toEqual(settled);
    const unchanged = { ...settled, result: 'unchanged' as const, keptFromGit: ['a.md'] };
    expect(lastSettledExport({ ...state, lastExport: unchanged }, 'k1')).toEqual(unchanged);
  });

  it('is none whenever the export has to read and compare in full', () => {
    const cases = [
      // Never exported, or by a version that kept no tree; a conflict; a dry run.
      { lastExport: undefined },
      { lastExport: { ...settled, tree: undefined } },
      { lastExport: { ...settled, result: 'conflict' as const } },
      { lastExport: { ...settled, result: 'dry-run' as const } },
      // Stopped between a push and its state; a conflict branch not merged yet.
      {
        exportAhead: {
          sha: 'c3',
          lastExport: settled,
          exportBase: 'c3',
          conflictParent: null,
          pendingConflict: null,
        },
      },
      { pendingConflict: { sha: 'x1', branch: 'docsync/conflict-rev_2', revision: 'rev_2' } },
      // The base moved since (a merge the space poll recognised), or was never kept.
      { exportBase: 'c9' },
      { exportBase: undefined },
      { lastExport: { ...settled, base: undefined } },
    ];
    for (const patch of cases)
      expect(lastSettledExport({ ...state, ...patch }, 'k1'), JSON.stringify(patch)).toBeUndefined();
    // Other settings: the folder written may differ.
    expect(lastSettledExport(state, 'k2')).toBeUndefined();
  });
});

describe('exportSettingsKey', () => {
  const mapping = mappingSchema.parse({
    name: 'docs',
    space: 'sp1',
    direction: 'both',
    git: { repo: 'https://x-access-token:s3cret@git.example/docs.git', branch: 'main', dir: 'docs' },
  });

  it('changes with what shapes the folder, not with polls, the author or the address', () => {
    const key = exportSettingsKey(mapping);
    expect(key).not.toContain('s3cret');
    expect(exportSettingsKey({ ...mapping, git: { ...mapping.git, poll: 1000, repo: 'other' } })).toBe(key);
    expect(
      exportSettingsKey({ ...mapping, export: { ...mapping.export, author: { name: 'a', email: 'a@b.c' } } }),
    ).toBe(key);
    expect(exportSettingsKey({ ...mapping, git: { ...mapping.git, dir: 'site' } })).not.toBe(key);
    expect(exportSettingsKey({ ...mapping, import: { ...mapping.import, unlisted: 'append' } })).not.toBe(
      key,
    );
    expect(exportSettingsKey({ ...mapping, export: { ...mapping.export, maxFileBytes: 2048 } })).not.toBe(
      key,
    );
    expect(exportSettingsKey({ ...mapping, direction: 'space-to-git' })).not.toBe(key);
  });
});
