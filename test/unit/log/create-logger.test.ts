import { describe, expect, it } from 'vitest';
import { redactUrlCredentials } from '../../../src/log/redact-url-credentials.js';
import { captureLog } from '../../support/test-context.js';

describe('the logger', () => {
  it('redacts tokens, authorization headers and secrets by key path', () => {
    const { log, lines } = captureLog();
    log.info(
      {
        token: 'tok-top',
        service: { baseUrl: 'https://x.test/v1', token: 'tok-nested' },
        request: { headers: { authorization: 'Bearer tok-header' } },
        hook: { webhookSecret: 'whsec', secret: 's3' },
        config: { http: { listen: 'x', token: 'tok-deep' } },
      },
      'configuration read',
    );
    const text = JSON.stringify(lines);
    for (const secret of ['tok-top', 'tok-nested', 'tok-header', 'whsec', '"s3"', 'tok-deep'])
      expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({
      token: '[redacted]',
      service: { baseUrl: 'https://x.test/v1', token: '[redacted]' },
    });
  });

  it('strips credentials from URLs in fields and in error messages', () => {
    const { log, lines } = captureLog();
    const error = new Error('fetch from https://user:hunter2@git.example.com/docs.git failed');
    log.warn(
      {
        redis: 'redis://:p4ss@10.0.0.1:6379/0',
        nested: { remote: 'https://x-token:ghp_abc@github.com/o/r.git' },
        err: error,
      },
      'remote failed',
    );
    const text = JSON.stringify(lines);
    for (const secret of ['hunter2', 'p4ss', 'ghp_abc']) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ redis: 'redis://***@10.0.0.1:6379/0', msg: 'remote failed' });
    expect(lines[0]).toMatchObject({
      err: { message: 'fetch from https://***@git.example.com/docs.git failed' },
    });
  });

  it('leaves addresses without credentials as they are', () => {
    expect(redactUrlCredentials('see https://docs.example.com/a@b and mail@example.com')).toBe(
      'see https://docs.example.com/a@b and mail@example.com',
    );
  });

  it('gives child loggers their component and job ids on every line', () => {
    const { log, lines } = captureLog();
    log
      .child({ component: 'worker' })
      .child({ queue: 'import', job: 'import:docs:abc' })
      .info({ result: 'imported' }, 'job completed');
    expect(lines[0]).toMatchObject({
      level: 'info',
      component: 'worker',
      queue: 'import',
      job: 'import:docs:abc',
      result: 'imported',
      msg: 'job completed',
    });
  });
});
