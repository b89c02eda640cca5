import { describe, expect, it } from 'vitest';
import { redactSecretKeys, SECRET_KEYS } from '../../../src/log/redact-secret-keys.js';
import { captureLog } from '../../support/test-context.js';

const redacted = (value: unknown) => JSON.parse(redactSecretKeys(JSON.stringify(value))) as unknown;

describe('secret keys in log lines', () => {
  it('hides the value of each secret key at any depth, whatever its type', () => {
    expect(
      redacted({
        token: 'tok-top',
        a: { b: { c: { d: { e: { token: 'tok-deep' } } } } },
        list: [{ password: 'pw' }, { apiKey: 12345 }],
        headers: { authorization: 'Bearer x', 'x-hub-signature-256': 'sha256=ab', 'x-gitlab-token': 'gl' },
        secret: { nested: ['s1', { more: 's2' }] },
        cookie: null,
        signature: true,
        Token: 'capitalised',
      }),
    ).toEqual({
      token: '[redacted]',
      a: { b: { c: { d: { e: { token: '[redacted]' } } } } },
      list: [{ password: '[redacted]' }, { apiKey: '[redacted]' }],
      headers: {
        authorization: '[redacted]',
        'x-hub-signature-256': '[redacted]',
        'x-gitlab-token': '[redacted]',
      },
      secret: '[redacted]',
      cookie: '[redacted]',
      signature: '[redacted]',
      Token: '[redacted]',
    });
  });

  it('reads a secret string to its real end, past escaped quotes, braces and commas', () => {
    const line = JSON.stringify({ token: 'a"b\\",}]{c', after: 'kept' });
    expect(JSON.parse(redactSecretKeys(line))).toEqual({ token: '[redacted]', after: 'kept' });
    const tricky = JSON.stringify({ password: 'ends with a backslash \\', next: 1 });
    expect(JSON.parse(redactSecretKeys(tricky))).toEqual({ password: '[redacted]', next: 1 });
  });

  it('leaves text that only looks like a secret key, inside a value, and other keys as they are', () => {
    const value = {
      msg: 'set "token": in the config, {"password":"x"} is an example',
      tokenCount: 3,
      mytoken: 'not one of the keys',
      list: ['"secret":"visible"'],
    };
    const line = JSON.stringify(value);
    expect(redactSecretKeys(line)).toBe(line);
  });

  it('leaves a line without any secret key as the same string', () => {
    const line = '{"level":"info","msg":"job completed","result":"ok"}\n';
    expect(redactSecretKeys(line)).toBe(line);
  });

  it('covers the keys the logger used to redact by path', () => {
    for (const key of SECRET_KEYS)
      expect(redacted({ [key]: 'x', keep: 1 })).toEqual({ [key]: '[redacted]', keep: 1 });
  });

  it('is applied by the logger to fields, child bindings and errors, keeping lines valid JSON', () => {
    const { log, texts, lines } = captureLog();
    const error = Object.assign(new Error('refused'), { token: 'tok-on-error' });
    log
      .child({ service: { token: 'tok-binding' } })
      .error({ err: error, request: { headers: { authorization: 'Bearer tok-header' } } }, 'call failed');
    const text = texts.join('\n');
    for (const secret of ['tok-on-error', 'tok-binding', 'tok-header']) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({
      service: { token: '[redacted]' },
      err: { message: 'refused', token: '[redacted]' },
      request: { headers: { authorization: '[redacted]' } },
      msg: 'call failed',
    });
  });
});
