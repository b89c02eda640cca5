import { describe, expect, it } from 'vitest';
import { redactError } from '../../../src/log/redact-error.js';

describe('redactError', () => {
  it('hides secret query parameters and user information in the message and the stack', () => {
    const original = Object.assign(
      new Error('cannot read https://bot:hunter2@specs.test/api.yaml?access_token=tok-123&v=2'),
      { code: 'SOURCE_UNREADABLE' },
    );
    const safe = redactError(original) as Error & { code?: string };
    expect(safe).not.toBe(original);
    expect(safe.message).toBe('cannot read https://***@specs.test/api.yaml?access_token=[redacted]&v=2');
    expect(safe.stack).toContain('access_token=[redacted]');
    for (const secret of ['hunter2', 'tok-123']) {
      expect(safe.message).not.toContain(secret);
      expect(safe.stack).not.toContain(secret);
    }
    expect(safe.code).toBe('SOURCE_UNREADABLE');
    expect(safe.name).toBe('Error');
  });

  it('returns an error without credentials unchanged, and redacts a thrown string', () => {
    const plain = new Error('nothing secret here');
    expect(redactError(plain)).toBe(plain);
    expect(redactError('failed: https://x.test/?token=abc')).toBe('failed: https://x.test/?token=[redacted]');
  });
});
