import { describe, expect, it } from 'vitest';
import { GitHostError } from '../../../src/commit-status/git-host-error.js';
import type { GitHostReport } from '../../../src/commit-status/report-config-schema.js';
import { statusRequest } from '../../../src/commit-status/status-request.js';
import { failureOf } from '../../../src/state/failure-of.js';

const SHA = 'c'.repeat(40);
const github: GitHostReport = {
  host: 'github',
  apiUrl: 'https://ghe.acme.test/api/v3',
  repo: 'acme/docs',
  tokenEnv: 'GITHUB_TOKEN',
  token: 'ghp_secret',
};
const gitlab: GitHostReport = {
  host: 'gitlab',
  url: 'https://gitlab.acme.test',
  project: 'group/sub/docs',
  tokenEnv: 'GITLAB_TOKEN',
  token: 'glpat-secret',
};

describe('the request of a commit status', () => {
  it("posts GitHub's statuses endpoint with a bearer token, the docsync context and the target", () => {
    const request = statusRequest(github, SHA, {
      state: 'success',
      description: 'imported into change request #4',
      targetUrl: 'https://docs.example.com/cr/4',
    });
    expect(request.url).toBe(`https://ghe.acme.test/api/v3/repos/acme/docs/statuses/${SHA}`);
    expect(request.headers).toMatchObject({
      authorization: 'Bearer ghp_secret',
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
    });
    expect(JSON.parse(request.body)).toEqual({
      state: 'success',
      context: 'docsync',
      description: 'imported into change request #4',
      target_url: 'https://docs.example.com/cr/4',
    });
  });

  it("posts GitLab's statuses endpoint with the project path encoded, PRIVATE-TOKEN and GitLab's state names", () => {
    const request = statusRequest(gitlab, SHA, { state: 'failure', description: 'import failed' });
    expect(request.url).toBe(`https://gitlab.acme.test/api/v4/projects/group%2Fsub%2Fdocs/statuses/${SHA}`);
    expect(request.headers['private-token']).toBe('glpat-secret');
    expect(request.headers.authorization).toBeUndefined();
    expect(JSON.parse(request.body)).toEqual({
      state: 'failed',
      name: 'docsync',
      description: 'import failed',
    });
    expect(JSON.parse(statusRequest(gitlab, SHA, { state: 'error', description: 'x' }).body).state).toBe(
      'failed',
    );
    expect(JSON.parse(statusRequest(gitlab, SHA, { state: 'pending', description: 'x' }).body).state).toBe(
      'pending',
    );
  });
});

describe('a failed report in /status', () => {
  const at = new Date('2025-01-01T00:00:00Z');
  const mapping = { name: 'docs', space: 'spc', report: github };
  const refused = (httpStatus: number) =>
    new GitHostError('GIT_HOST_REFUSED', `github:acme/docs: commit status refused with ${httpStatus}`, {
      host: 'github',
      httpStatus,
    });

  it('points a refused token at the variable it is read from', () => {
    const failure = failureOf(refused(401), at, { mapping });
    expect(failure).toMatchObject({ code: 'GIT_HOST_REFUSED', at: at.toISOString() });
    expect(failure.hint).toBe(
      'the git host refused the token: check the environment variable GITHUB_TOKEN (report.github.tokenEnv of mapping docs) and that the token has not expired',
    );
    expect(JSON.stringify(failure)).not.toContain('ghp_secret');
  });

  it('points a missing repository or project at its key, and a host that does not answer at its address', () => {
    expect(failureOf(refused(404), at, { mapping }).hint).toMatch(
      /^the git host has no repository acme\/docs this token can see: check report\.github\.repo of mapping docs/,
    );
    expect(failureOf(refused(404), at, { mapping: { ...mapping, report: gitlab } }).hint).toMatch(
      /^the git host has no project group\/sub\/docs this token can see: check report\.gitlab\.project/,
    );
    const down = new GitHostError('GIT_HOST_UNREACHABLE', 'github:acme/docs: no answer', { host: 'github' });
    expect(down.retryable).toBe(true);
    expect(failureOf(down, at, { mapping }).hint).toMatch(
      /^the git host at https:\/\/ghe\.acme\.test\/api\/v3 does not answer or is failing: docsync tries again; check report\.github\.apiUrl/,
    );
  });

  it("keeps the usual code and hint of a failure that is not the git host's", () => {
    const failure = failureOf(new Error('boom'), at, { mapping });
    expect(failure).toMatchObject({ code: 'FAILED', message: 'boom' });
  });
});
