import { describe, expect, it } from 'vitest';
import { GitHostError } from '../../../src/commit-status/git-host-error.js';
import { postCommitStatus } from '../../../src/commit-status/post-commit-status.js';
import type { GitHostReport } from '../../../src/commit-status/report-config-schema.js';
import { freePort } from '../../support/free-port.js';
import { startGitHostServer } from '../../support/git-host-server.js';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const TOKEN = 'token-the-host-accepts';
const signal = new AbortController().signal;

async function setUp() {
  const server = await startGitHostServer({ tokens: [TOKEN], repos: ['acme/docs', 'group/docs'] });
  const github: GitHostReport = {
    host: 'github',
    apiUrl: server.githubApiUrl,
    repo: 'acme/docs',
    tokenEnv: 'GITHUB_TOKEN',
    token: TOKEN,
  };
  const gitlab: GitHostReport = {
    host: 'gitlab',
    url: server.gitlabUrl,
    project: 'group/docs',
    tokenEnv: 'GITLAB_TOKEN',
    token: TOKEN,
  };
  return { server, github, gitlab };
}

async function refusal(call: Promise<unknown>): Promise<GitHostError> {
  const error = await call.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(GitHostError);
  return error as GitHostError;
}

describe('posting a commit status', () => {
  it('creates the status on GitHub and on GitLab, as each documents it', async () => {
    const { server, github, gitlab } = await setUp();
    const status = {
      state: 'success',
      description: 'imported',
      targetUrl: 'https://docs.test/cr/1',
    } as const;
    expect(await postCommitStatus(github, SHA, status, signal)).toEqual({ id: 1 });
    expect(await postCommitStatus(gitlab, SHA, { ...status, state: 'failure' }, signal)).toEqual({ id: 2 });
    expect(server.calls).toEqual([
      {
        host: 'github',
        repo: 'acme/docs',
        sha: SHA,
        token: TOKEN,
        body: {
          state: 'success',
          context: 'docsync',
          description: 'imported',
          target_url: 'https://docs.test/cr/1',
        },
        status: 201,
      },
      {
        host: 'gitlab',
        repo: 'group/docs',
        sha: SHA,
        token: TOKEN,
        body: {
          state: 'failed',
          name: 'docsync',
          description: 'imported',
          target_url: 'https://docs.test/cr/1',
        },
        status: 201,
      },
    ]);
  });

  it('fails for good on a refused token or an unknown repository, without the token in the message', async () => {
    const { github, gitlab } = await setUp();
    const status = { state: 'pending', description: 'importing' } as const;
    const badToken = await refusal(
      postCommitStatus({ ...github, token: 'wrong-token' }, SHA, status, signal),
    );
    expect(badToken).toMatchObject({ code: 'GIT_HOST_REFUSED', httpStatus: 401, retryable: false });
    expect(badToken.message).toBe('github:acme/docs: commit status refused with 401 (Bad credentials)');
    const gitlabToken = await refusal(
      postCommitStatus({ ...gitlab, token: 'wrong-token' }, SHA, status, signal),
    );
    expect(gitlabToken).toMatchObject({ code: 'GIT_HOST_REFUSED', httpStatus: 401 });
    expect(gitlabToken.message).not.toContain('wrong-token');
    const missing = await refusal(postCommitStatus({ ...github, repo: 'acme/other' }, SHA, status, signal));
    expect(missing).toMatchObject({ code: 'GIT_HOST_REFUSED', httpStatus: 404 });
    const notACommit = await refusal(postCommitStatus(github, 'abc', status, signal));
    expect(notACommit).toMatchObject({ code: 'GIT_HOST_REFUSED', httpStatus: 422 });
  });

  it('fails passing (retried) on a 5xx, a 429 and a host that does not listen', async () => {
    const { server, github } = await setUp();
    const status = { state: 'pending', description: 'importing' } as const;
    server.failNext(1, 502);
    expect(await refusal(postCommitStatus(github, SHA, status, signal))).toMatchObject({
      code: 'GIT_HOST_UNREACHABLE',
      httpStatus: 502,
      retryable: true,
    });
    server.failNext(1, 429);
    expect(await refusal(postCommitStatus(github, SHA, status, signal))).toMatchObject({
      code: 'GIT_HOST_UNREACHABLE',
      httpStatus: 429,
    });
    expect(await postCommitStatus(github, SHA, status, signal)).toEqual({ id: 1 });
    const closed = `http://127.0.0.1:${await freePort()}`;
    expect(await refusal(postCommitStatus({ ...github, apiUrl: closed }, SHA, status, signal))).toMatchObject(
      {
        code: 'GIT_HOST_UNREACHABLE',
        httpStatus: undefined,
      },
    );
  });
});

describe('a pending status posted again', () => {
  it('is taken as already there when GitLab refuses to move it to the same state, and replaced once finished', async () => {
    const { server, gitlab } = await setUp();
    const pending = { state: 'pending', description: 'importing' } as const;
    expect(await postCommitStatus(gitlab, SHA, pending, signal)).toEqual({ id: 1 });
    expect(await postCommitStatus(gitlab, SHA, { ...pending, description: 'waiting' }, signal)).toEqual({
      unchanged: true,
    });
    const done = { state: 'success', description: 'imported' } as const;
    expect(await postCommitStatus(gitlab, SHA, done, signal)).toEqual({ id: 2 });
    expect(await postCommitStatus(gitlab, SHA, { ...done, description: 'merged' }, signal)).toEqual({
      id: 3,
    });
    expect(server.calls.map((call) => call.status)).toEqual([201, 400, 201, 201]);
  });
});

describe('the local git host', () => {
  it('answers a state outside the documented ones as GitHub (422) and GitLab (400) do', async () => {
    const { server } = await setUp();
    const post = (url: string, headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ state: 'done', context: 'docsync' }),
      });
    const github = await post(`${server.githubApiUrl}/repos/acme/docs/statuses/${SHA}`, {
      authorization: `Bearer ${TOKEN}`,
    });
    expect(github.status).toBe(422);
    expect(await github.json()).toMatchObject({
      message: 'Validation Failed',
      errors: [{ field: 'state', message: 'state is not included in the list' }],
    });
    const gitlab = await post(`${server.gitlabUrl}/api/v4/projects/group%2Fdocs/statuses/${SHA}`, {
      'private-token': TOKEN,
    });
    expect(gitlab.status).toBe(400);
    expect(server.posted()).toEqual([]);
  });
});
