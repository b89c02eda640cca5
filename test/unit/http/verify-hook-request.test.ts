import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyHookRequest } from '../../../src/http/hooks/verify-hook-request.js';

const secrets = { secret: 'github-hook-secret', gitlabToken: 'gitlab-hook-token' };
const body = Buffer.from('{"ref":"refs/heads/main"}');
const hubSignature = (key: string, bytes: Buffer = body) =>
  `sha256=${createHmac('sha256', key).update(bytes).digest('hex')}`;

describe('verifyHookRequest', () => {
  it('accepts a GitHub request signed over its raw body, with its event', () => {
    const headers = { 'x-hub-signature-256': hubSignature(secrets.secret), 'x-github-event': 'push' };
    expect(verifyHookRequest(secrets, headers, body)).toEqual({
      ok: true,
      provider: 'github',
      event: 'push',
    });
  });

  it('refuses a GitHub signature over other bytes, with another key, or malformed', () => {
    const refused = (signature: string) =>
      verifyHookRequest(secrets, { 'x-hub-signature-256': signature, 'x-github-event': 'push' }, body);
    expect(refused(hubSignature(secrets.secret, Buffer.from(`${body} `)))).toEqual({
      ok: false,
      provider: 'github',
      reason: 'signature mismatch',
    });
    expect(refused(hubSignature('another-secret'))).toMatchObject({ reason: 'signature mismatch' });
    expect(refused(hubSignature(secrets.secret).replace('sha256=', 'sha1='))).toMatchObject({
      reason: 'signature malformed',
    });
    expect(refused('sha256=abc')).toMatchObject({ reason: 'signature malformed' });
  });

  it('refuses GitHub requests when no GitHub secret is configured, even unsigned-looking ones', () => {
    const headers = { 'x-hub-signature-256': hubSignature(''), 'x-github-event': 'push' };
    expect(verifyHookRequest({ gitlabToken: 'x' }, headers, body)).toEqual({
      ok: false,
      provider: 'github',
      reason: 'provider not configured',
    });
  });

  it('accepts the GitLab token and refuses another one, of any length', () => {
    const gitlab = (token: string) =>
      verifyHookRequest(secrets, { 'x-gitlab-token': token, 'x-gitlab-event': 'Push Hook' }, body);
    expect(gitlab(secrets.gitlabToken)).toEqual({ ok: true, provider: 'gitlab', event: 'Push Hook' });
    for (const token of ['gitlab-hook-tokem', 'gitlab', `${secrets.gitlabToken}x`, ''])
      expect(gitlab(token), token).toEqual({ ok: false, provider: 'gitlab', reason: 'token mismatch' });
    expect(
      verifyHookRequest(
        { secret: 'x' },
        { 'x-gitlab-token': 'anything', 'x-gitlab-event': 'Push Hook' },
        body,
      ),
    ).toMatchObject({ ok: false, reason: 'provider not configured' });
  });

  it('refuses a request with neither signature nor token, whatever its event headers say', () => {
    expect(verifyHookRequest(secrets, { 'x-github-event': 'push' }, body)).toEqual({
      ok: false,
      provider: undefined,
      reason: 'credentials missing',
    });
  });
});
