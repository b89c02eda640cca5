import { describe, expect, it } from 'vitest';
import { importWarningsFor, NO_IMPORT_WARNINGS } from '../../../src/links/import-warnings-for.js';
import type { ImportOutcome } from '../../../src/state/mapping-state.js';

const SHA = 'a'.repeat(40);
const warnings = [
  { code: 'SUMMARY_DUPLICATE', file: 'SUMMARY.md', line: 7, message: 'install.md is listed twice.' },
];

const imported = (extra: Partial<ImportOutcome> = {}): ImportOutcome => ({
  at: '2026-11-21T12:00:00.000Z',
  result: 'imported',
  source: 'git',
  sha: SHA,
  changeRequest: { id: 'cr_1', number: 1 },
  revision: 'rev_1',
  warnings,
  ...extra,
});

describe('importWarningsFor', () => {
  it('gives the warnings of the import that made the change request revision', () => {
    expect(
      importWarningsFor(
        [
          { mapping: 'other', lastImport: imported({ changeRequest: { id: 'cr_9', number: 9 } }) },
          { mapping: 'docs', lastImport: imported({ warningCount: 64 }) },
        ],
        { changeRequest: 'cr_1', revision: 'rev_1' },
      ),
    ).toEqual({ listed: warnings, count: 64 });
  });

  it('counts the listed ones when the state keeps no count', () => {
    expect(
      importWarningsFor([{ mapping: 'docs', lastImport: imported() }], {
        changeRequest: 'cr_1',
        revision: 'rev_1',
      }),
    ).toEqual({ listed: warnings, count: 1 });
  });

  it('claims none for a revision a person made in the service, or another change request', () => {
    const imports = [{ mapping: 'docs', lastImport: imported() }];
    expect(importWarningsFor(imports, { changeRequest: 'cr_1', revision: 'rev_2' })).toEqual(
      NO_IMPORT_WARNINGS,
    );
    expect(importWarningsFor(imports, { changeRequest: 'cr_2', revision: 'rev_1' })).toEqual(
      NO_IMPORT_WARNINGS,
    );
    expect(importWarningsFor([{ mapping: 'docs' }], { changeRequest: 'cr_1', revision: 'rev_1' })).toEqual(
      NO_IMPORT_WARNINGS,
    );
  });

  it('keeps them on docsync updating the imported revision from the main content', () => {
    const kept = { mapping: 'docs', changeRequestId: 'cr_1', lastImport: imported() };
    const imports = [kept];
    const update = { kind: 'update' as const, mapping: 'docs', sha: SHA, changeRequest: 'cr_1' };
    expect(importWarningsFor(imports, { changeRequest: 'cr_1', revision: 'rev_3', origin: update })).toEqual({
      listed: warnings,
      count: 1,
    });
    // Another change request's revision, another mapping's, a merge, or a change request the
    // mapping keeps no more: none.
    for (const origin of [
      { ...update, changeRequest: 'cr_2' },
      { ...update, mapping: 'other' },
      { ...update, kind: 'merge' as const },
    ])
      expect(importWarningsFor(imports, { changeRequest: 'cr_1', revision: 'rev_3', origin })).toEqual(
        NO_IMPORT_WARNINGS,
      );
    const elsewhere = [{ ...kept, changeRequestId: 'cr_2' }];
    expect(
      importWarningsFor(elsewhere, { changeRequest: 'cr_1', revision: 'rev_3', origin: update }),
    ).toEqual(NO_IMPORT_WARNINGS);
  });

  it('keeps them after an import that found the content unchanged, which records no revision', () => {
    const unchanged: ImportOutcome = {
      at: '2026-11-21T12:05:00.000Z',
      result: 'unchanged',
      source: 'git',
      sha: 'b'.repeat(40),
      warnings,
      warningCount: 1,
    };
    const imports = [{ mapping: 'docs', changeRequestId: 'cr_1', lastImport: unchanged }];
    const origin = { kind: 'import' as const, mapping: 'docs', sha: SHA, changeRequest: 'cr_1' };
    expect(importWarningsFor(imports, { changeRequest: 'cr_1', revision: 'rev_1', origin })).toEqual({
      listed: warnings,
      count: 1,
    });
    expect(importWarningsFor(imports, { changeRequest: 'cr_1', revision: 'rev_1' })).toEqual(
      NO_IMPORT_WARNINGS,
    );
  });

  it('tells an origin recorded without its change request by the imported commit', () => {
    const imports = [{ mapping: 'docs', lastImport: imported() }];
    const old = { kind: 'update' as const, mapping: 'docs', sha: SHA };
    expect(importWarningsFor(imports, { changeRequest: 'cr_1', revision: 'rev_3', origin: old })).toEqual({
      listed: warnings,
      count: 1,
    });
    for (const origin of [
      { ...old, sha: 'b'.repeat(40) },
      { kind: 'update' as const, mapping: 'docs' },
    ])
      expect(importWarningsFor(imports, { changeRequest: 'cr_1', revision: 'rev_3', origin })).toEqual(
        NO_IMPORT_WARNINGS,
      );
  });
});
