// The table of error codes: every code has a one-line meaning for users, every list of codes an
// error class keeps is in it, and every code src/ and jobs/ raise by hand is in it, including the
// ones tsc cannot see (the code at the start of a BullMQ UnrecoverableError's message).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES } from '../../../src/api/api-error.js';
import { PROCESS_ERROR_CODES } from '../../../src/api/schemas/service-enums.js';
import { ERROR_CODES, type ErrorCode } from '../../../src/errors/error-codes.js';
import { GIT_ERROR_CODES } from '../../../src/git/git-error.js';
import { PACKAGE_ROOT } from '../../../src/package-info.js';

/** `new SomeError('CODE'`, `new SomeError({ ...context, code: 'CODE'` and `new UnrecoverableError(`CODE: ...`. */
const RAISED_CODE = /\bnew (\w*Error)\(\s*(?:\{[^}]*?\bcode: )?['`]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g;

async function raisedCodes(): Promise<Map<string, string[]>> {
  const codes = new Map<string, string[]>();
  for (const dir of ['src', 'jobs']) {
    const entries = await readdir(join(PACKAGE_ROOT, dir), { withFileTypes: true, recursive: true });
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const text = await readFile(join(entry.parentPath, entry.name), 'utf8');
      for (const match of text.matchAll(RAISED_CODE)) {
        const code = match[2] ?? '';
        codes.set(code, [...(codes.get(code) ?? []), `${entry.name} (${match[1]})`]);
      }
    }
  }
  return codes;
}

describe('ERROR_CODES', () => {
  it('gives every code a one-line meaning', () => {
    for (const [code, meaning] of Object.entries(ERROR_CODES)) {
      expect(code, code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(meaning.trim(), code).not.toBe('');
      expect(meaning, code).not.toMatch(/\n/);
      expect(meaning.length, code).toBeLessThanOrEqual(120);
    }
  });

  it('holds the codes the API client and the git layer list', () => {
    const table: readonly string[] = Object.keys(ERROR_CODES);
    expect(table).toEqual(expect.arrayContaining([...API_ERROR_CODES, ...GIT_ERROR_CODES]));
  });

  it('holds the code of every processing failure the service reports, prefixed with OPENAPI_', () => {
    // refresh-openapi-spec.ts raises `OPENAPI_${lastProcessErrorCode}`; the schema bounds that code.
    const prefixed = PROCESS_ERROR_CODES.map((code) => `OPENAPI_${code}` as const) satisfies ErrorCode[];
    expect(Object.keys(ERROR_CODES)).toEqual(expect.arrayContaining(prefixed));
  });

  it('holds every code src/ and jobs/ raise by hand', async () => {
    const raised = await raisedCodes();
    // The scan must see the codes tsc cannot check, or it proves nothing.
    expect(raised.get('JOB_UNKNOWN')).toEqual(['accept-job.ts (UnrecoverableError)']);
    expect(raised.get('API_ABORTED')?.length).toBeGreaterThan(0);
    expect(raised.size).toBeGreaterThan(40);
    const missing = [...raised].filter(([code]) => !Object.hasOwn(ERROR_CODES, code));
    expect(missing).toEqual([]);
  });
});
