import { describe, expect, it } from 'vitest';
import { SERVICE_IMPORT_LIMITS } from '../../../src/api/schemas/service-import-limits.js';
import type { ContentWarning } from '../../../src/content/content-warning.js';
import { contentKey } from '../../../src/import/content-key.js';
import { logImportWarnings, storedWarnings } from '../../../src/import/import-warnings.js';
import { MAX_STORED_WARNINGS } from '../../../src/state/mapping-state.js';
import { captureLog } from '../../support/test-context.js';

function unlisted(count: number): ContentWarning[] {
  return Array.from({ length: count }, (_, index) => ({
    code: 'PAGE_UNLISTED',
    file: `drafts/${index}.md`,
    message: `drafts/${index}.md is not listed in SUMMARY.md`,
  }));
}

describe('logImportWarnings', () => {
  it('logs each warning at warn level with its place and code, up to the cap, then one line with the rest', () => {
    const { log, lines } = captureLog();
    const warnings: ContentWarning[] = [
      { code: 'SUMMARY_DUPLICATE', file: 'SUMMARY.md', line: 7, message: 'a.md is already listed on line 3' },
      ...unlisted(4),
    ];
    logImportWarnings(log, warnings, 3);
    expect(
      lines.map(({ level, msg, code, file, line, detail, notLogged, count }) => ({
        level,
        msg,
        code,
        file,
        line,
        detail,
        notLogged,
        count,
      })),
    ).toEqual([
      {
        level: 'warn',
        msg: 'docs folder warning',
        code: 'SUMMARY_DUPLICATE',
        file: 'SUMMARY.md',
        line: 7,
        detail: 'a.md is already listed on line 3',
        notLogged: undefined,
        count: undefined,
      },
      {
        level: 'warn',
        msg: 'docs folder warning',
        code: 'PAGE_UNLISTED',
        file: 'drafts/0.md',
        line: undefined,
        detail: 'drafts/0.md is not listed in SUMMARY.md',
        notLogged: undefined,
        count: undefined,
      },
      {
        level: 'warn',
        msg: 'docs folder warning',
        code: 'PAGE_UNLISTED',
        file: 'drafts/1.md',
        line: undefined,
        detail: 'drafts/1.md is not listed in SUMMARY.md',
        notLogged: undefined,
        count: undefined,
      },
      {
        level: 'warn',
        msg: 'more docs folder warnings',
        code: undefined,
        file: undefined,
        line: undefined,
        detail: undefined,
        notLogged: 2,
        count: 5,
      },
    ]);
  });

  it('logs them at info beside a report that prints them (docsync once)', () => {
    const { log, lines } = captureLog();
    logImportWarnings(log, unlisted(3), 2, 'info');
    expect(lines.map(({ level, msg }) => ({ level, msg }))).toEqual([
      { level: 'info', msg: 'docs folder warning' },
      { level: 'info', msg: 'docs folder warning' },
      { level: 'info', msg: 'more docs folder warnings' },
    ]);
  });

  it('logs nothing when there is nothing to say', () => {
    const { log, lines } = captureLog();
    logImportWarnings(log, []);
    expect(lines).toEqual([]);
  });
});

describe('storedWarnings', () => {
  it('keeps the first warnings and the count of all', () => {
    const many = unlisted(MAX_STORED_WARNINGS + 5);
    expect(storedWarnings(many)).toEqual({
      warnings: many.slice(0, MAX_STORED_WARNINGS),
      warningCount: MAX_STORED_WARNINGS + 5,
    });
    expect(storedWarnings(unlisted(2))).toEqual({ warnings: unlisted(2), warningCount: 2 });
    expect(storedWarnings([])).toEqual({});
    expect(storedWarnings(undefined)).toEqual({});
  });
});

describe('contentKey', () => {
  const defaults = { limits: { ...SERVICE_IMPORT_LIMITS }, unlisted: 'skip' as const };

  it('is the folder alone under the default settings, so that earlier state still matches', () => {
    expect(contentKey('3f2a', defaults)).toBe('3f2a');
    expect(contentKey('3f2a', { ...defaults, limits: { ...SERVICE_IMPORT_LIMITS, maxFiles: 5 } })).toBe(
      '3f2a',
    );
  });

  it('changes with the settings that change what a folder bundles to', () => {
    expect(contentKey('3f2a', { ...defaults, unlisted: 'append' })).toBe('3f2a|unlisted=append');
    expect(contentKey('3f2a', { ...defaults, unlisted: 'append', skipFilesOver: 1024 })).toBe(
      '3f2a|unlisted=append|skipFilesOver=1024',
    );
  });
});
