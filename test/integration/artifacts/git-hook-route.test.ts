import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type GitProvider,
  type PushEvent,
  parsePushEvent,
} from '../../../src/http/hooks/parse-push-event.js';
import { matchesRepository, registerGitHookRoute } from '../../../src/http/routes/git-hook-route.js';
import { captureLog } from '../../support/test-context.js';
import { startRouteServer } from './route-test-server.js';

const SECRET = 'github-hook-secret-value';
const GITLAB_TOKEN = 'gitlab-hook-token-value';
const AFTER = 'c0ffee'.padEnd(40, '1');
const BEFORE = 'bead'.padEnd(40, '2');

const githubPush = {
  ref: 'refs/heads/main',
  before: BEFORE,
  after: AFTER,
  deleted: false,
  repository: {
    full_name: 'acme/docs',
    html_url: 'https://github.com/acme/docs',
    ssh_url: 'git@github.com:acme/docs.git',
    clone_url: 'https://github.com/acme/docs.git',
  },
  commits: [{ id: AFTER, message: 'docs: install guide' }],
};

const gitlabPush = {
  object_kind: 'push',
  ref: 'refs/heads/main',
  before: BEFORE,
  after: AFTER,
  project: {
    web_url: 'https://gitlab.example.com/group/docs',
    git_ssh_url: 'git@gitlab.example.com:group/docs.git',
    git_http_url: 'https://gitlab.example.com/group/docs.git',
  },
};

function parsedPush(provider: GitProvider, payload: unknown): PushEvent {
  const parsed = parsePushEvent(provider, payload);
  if (!parsed.ok) throw new Error(`the test payload does not parse: ${parsed.issues.join('; ')}`);
  return parsed.push;
}

const hubSignature = (body: string, key = SECRET) =>
  `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;

describe('POST /hooks/git', async () => {
  const { log, lines } = captureLog('trace');
  const pushes: PushEvent[] = [];
  const mappings = ['git@github.com:acme/docs.git', 'https://gitlab.example.com/group/docs'];
  const { origin } = await startRouteServer(log, (server) =>
    registerGitHookRoute(server, {
      secret: SECRET,
      gitlabToken: GITLAB_TOKEN,
      log,
      onPush: async (push) => {
        pushes.push(push);
        return mappings.filter((repo) => matchesRepository(repo, push.repository.urls)).length;
      },
    }),
  );
  const post = (body: string, headers: Record<string, string>) =>
    fetch(`${origin}/hooks/git`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  const refusal = {
    error: { code: 401, message: 'the webhook signature or token is missing or wrong' },
  };

  it('triggers on a GitHub push signed over its raw bytes, with the parsed event', async () => {
    pushes.length = 0;
    // Spacing and key order as the sender wrote them: re-serialising would break the signature.
    const body = JSON.stringify(githubPush, null, 2);
    const response = await post(body, {
      'x-github-event': 'push',
      'x-github-delivery': 'delivery-1',
      'x-hub-signature-256': hubSignature(body),
    });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ triggered: 1 });
    // The event as the parser reads the payload (test/unit/http/parse-push-event.test.ts pins that down).
    expect(pushes).toEqual([expect.objectContaining({ provider: 'github', after: AFTER })]);
    expect(pushes).toEqual([parsedPush('github', githubPush)]);
    expect(lines.find((line) => line.msg === 'git push received')).toMatchObject({
      provider: 'github',
      delivery: 'delivery-1',
      ref: 'refs/heads/main',
      triggered: 1,
    });
  });

  it('accepts GitHub`s form-encoded deliveries too', async () => {
    pushes.length = 0;
    const body = new URLSearchParams({ payload: JSON.stringify(githubPush) }).toString();
    const response = await post(body, {
      'content-type': 'application/x-www-form-urlencoded',
      'x-github-event': 'push',
      'x-hub-signature-256': hubSignature(body),
    });
    expect(response.status).toBe(202);
    expect(pushes.map((push) => push.after)).toEqual([AFTER]);
  });

  it('refuses a wrong or missing signature with 401 and triggers nothing', async () => {
    pushes.length = 0;
    const body = JSON.stringify(githubPush);
    for (const headers of [
      { 'x-github-event': 'push', 'x-hub-signature-256': hubSignature(body, 'another-secret') },
      { 'x-github-event': 'push', 'x-hub-signature-256': hubSignature(`${body} `) },
      { 'x-github-event': 'push', 'x-hub-signature-256': 'sha256=not-hex' },
      { 'x-github-event': 'push' },
      {},
    ]) {
      const response = await post(body, headers);
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(await response.json()).toEqual(refusal);
    }
    expect(pushes).toEqual([]);
  });

  it('triggers on a GitLab push with the right token and refuses a wrong one', async () => {
    pushes.length = 0;
    const body = JSON.stringify(gitlabPush);
    const right = await post(body, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': GITLAB_TOKEN });
    expect(right.status).toBe(202);
    expect(await right.json()).toEqual({ triggered: 1 });
    expect(pushes).toMatchObject([{ provider: 'gitlab', ref: 'refs/heads/main', after: AFTER }]);
    const wrong = await post(body, { 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': `${GITLAB_TOKEN}x` });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual(refusal);
    expect(pushes).toHaveLength(1);
  });

  it('answers a GitHub ping with 200 and other events with 202, triggering nothing', async () => {
    pushes.length = 0;
    const ping = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
    const pong = await post(ping, { 'x-github-event': 'ping', 'x-hub-signature-256': hubSignature(ping) });
    expect(pong.status).toBe(200);
    expect(await pong.json()).toEqual({ ok: true });
    const issue = JSON.stringify({ action: 'opened' });
    const other = await post(issue, {
      'x-github-event': 'issues',
      'x-hub-signature-256': hubSignature(issue),
    });
    expect(other.status).toBe(202);
    expect(await other.json()).toEqual({ triggered: 0 });
    const tag = await post(issue, { 'x-gitlab-event': 'Tag Push Hook', 'x-gitlab-token': GITLAB_TOKEN });
    expect(await tag.json()).toEqual({ triggered: 0 });
    expect(pushes).toEqual([]);
  });

  it('answers 400 to a signed push it cannot read, and 413 past 1 MiB', async () => {
    const broken = '{"ref": ';
    const notJson = await post(broken, {
      'x-github-event': 'push',
      'x-hub-signature-256': hubSignature(broken),
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: { code: 400, message: 'the push payload is not JSON' } });
    const partial = JSON.stringify({ ref: 'refs/heads/main' });
    const invalid = await post(partial, {
      'x-github-event': 'push',
      'x-hub-signature-256': hubSignature(partial),
    });
    expect(invalid.status).toBe(400);
    const huge = JSON.stringify({ ...githubPush, padding: 'x'.repeat(1024 * 1024) });
    const tooLarge = await post(huge, {
      'x-github-event': 'push',
      'x-hub-signature-256': hubSignature(huge),
    });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ error: { code: 413 } });
  });

  it('leaves JSON parsing of the other routes as it was', async () => {
    const response = await fetch(`${origin}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hello: ['world'] }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: { hello: ['world'] } });
  });

  it('never logs the secret, the token or a signature', async () => {
    const text = JSON.stringify(lines);
    expect(text).toContain('git hook refused');
    for (const secret of [SECRET, GITLAB_TOKEN, 'sha256=']) expect(text).not.toContain(secret);
  });
});
