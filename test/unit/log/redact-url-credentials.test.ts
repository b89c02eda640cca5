import { describe, expect, it } from 'vitest';
import { isSecretParameter, redactUrlCredentials } from '../../../src/log/redact-url-credentials.js';

describe('redactUrlCredentials', () => {
  it('hides the value of each secret query parameter and keeps its name', () => {
    expect(
      redactUrlCredentials(
        'GET https://specs.example.com/openapi.yaml?token=tok-1&access_token=tok-2&key=k3&api_key=k4&sig=s5&signature=s6&password=p7&secret=s8&page=2',
      ),
    ).toBe(
      'GET https://specs.example.com/openapi.yaml?token=[redacted]&access_token=[redacted]&key=[redacted]&api_key=[redacted]&sig=[redacted]&signature=[redacted]&password=[redacted]&secret=[redacted]&page=2',
    );
  });

  it('compares names without case and hides names that end with a secret word', () => {
    expect(
      redactUrlCredentials(
        'https://bucket.s3.amazonaws.com/spec.yaml?X-Amz-Credential=AKIA&X-Amz-Signature=abc123&X-Amz-Security-Token=FwoG&TOKEN=up&apiKey=k&client_secret=cs',
      ),
    ).toBe(
      'https://bucket.s3.amazonaws.com/spec.yaml?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]&X-Amz-Security-Token=[redacted]&TOKEN=[redacted]&apiKey=[redacted]&client_secret=[redacted]',
    );
  });

  it('hides user information and secret parameters of one address together, in any text around it', () => {
    expect(
      redactUrlCredentials(
        "fatal: unable to access 'https://bot:hunter2@git.example.com/docs.git?private_token=glpat-xyz/': 401",
      ),
    ).toBe("fatal: unable to access 'https://***@git.example.com/docs.git?private_token=[redacted]': 401");
    expect(redactUrlCredentials('{"url":"https://x.test/a?token=abc","n":1}')).toBe(
      '{"url":"https://x.test/a?token=[redacted]","n":1}',
    );
    expect(redactUrlCredentials('see /spec.yaml?sig=abc#top and #access_token=def')).toBe(
      'see /spec.yaml?sig=[redacted]#top and #access_token=[redacted]',
    );
  });

  it('hides a password that itself holds an @', () => {
    expect(redactUrlCredentials('redis://:p@ss@10.0.0.1:6379/0')).toBe('redis://***@10.0.0.1:6379/0');
  });

  it('leaves other parameters, plain text and addresses without credentials as they are', () => {
    for (const text of [
      'https://docs.example.com/search?q=token&page=2&sort=asc',
      'token=abc is not in a query string',
      'see https://docs.example.com/a@b and mail@example.com',
      'https://docs.example.com/spec.yaml?token=',
    ])
      expect(redactUrlCredentials(text)).toBe(text);
  });

  it('is the same when applied twice', () => {
    const once = redactUrlCredentials('https://u:p@h.test/x?token=t&sig=s');
    expect(redactUrlCredentials(once)).toBe(once);
  });

  it('tells secret parameter names from others', () => {
    for (const name of [
      'token',
      'Access_Token',
      'KEY',
      'x-amz-signature',
      'sig',
      'Password',
      'secret',
      'apiKey',
      'auth',
    ])
      expect(isSecretParameter(name), name).toBe(true);
    for (const name of ['page', 'q', 'ref', 'format', 'version', 'expires'])
      expect(isSecretParameter(name), name).toBe(false);
  });
});
