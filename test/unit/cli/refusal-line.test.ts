import { describe, expect, it } from 'vitest';
import { refusalLine } from '../../../src/cli/refusal-line.js';
import { ERROR_CODES } from '../../../src/errors/error-codes.js';

describe('refusalLine', () => {
  it('names the mapping, the message and the code, then the hint that says what to check', () => {
    expect(
      refusalLine('docs', {
        code: 'API_HTTP_ERROR',
        message: 'GET /spaces/s1: 401 Unauthorized',
        hint: 'the service refused the token: check service.token',
      }),
    ).toBe(
      'docsync once: docs: GET /spaces/s1: 401 Unauthorized (API_HTTP_ERROR); hint: the service refused the token: check service.token\n',
    );
  });

  it("leaves out a hint that only repeats the code's meaning: the message says what to change", () => {
    expect(
      refusalLine('docs', {
        code: 'ARCHIVE_TOO_MANY_ENTRIES',
        message: 'the docs root has 3 files to import, over the limit of 1; raise import.limits.maxFiles',
        hint: ERROR_CODES.ARCHIVE_TOO_MANY_ENTRIES,
      }),
    ).toBe(
      'docsync once: docs: the docs root has 3 files to import, over the limit of 1; raise import.limits.maxFiles (ARCHIVE_TOO_MANY_ENTRIES)\n',
    );
  });

  it("keeps a message that quotes git's output on one line", () => {
    const line = refusalLine('docs', {
      code: 'GIT_FAILED',
      message: 'git fetch failed:\nfatal: unable to access\n  remote: gone\n',
    });
    expect(line).toBe(
      'docsync once: docs: git fetch failed: fatal: unable to access remote: gone (GIT_FAILED)\n',
    );
    expect(line.split('\n')).toHaveLength(2);
  });
});
