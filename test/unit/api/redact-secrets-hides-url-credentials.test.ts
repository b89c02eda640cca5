import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../src/api/redact-secrets.js';

describe('redactSecrets and credentials in addresses', () => {
  it('hides user information and secret parameters of addresses the query-string rule does not drop', () => {
    expect(
      redactSecrets(
        'import of git://bot:hunter2@git.test/docs.git failed; see /v1/imports?access_token=tok-123&page=2',
        [],
      ),
    ).toBe('import of git://***@git.test/docs.git failed; see /v1/imports?access_token=[redacted]&page=2');
  });

  it('still drops the whole query string of an http(s) address, and hides its user information', () => {
    expect(redactSecrets('fetch https://u:pw@x.test/spec.yaml?expires=1&sig=abc failed', [])).toBe(
      'fetch https://***@x.test/spec.yaml?[redacted] failed',
    );
  });
});
