// Commit statuses end to end: the daemon imports a commit of a bare repository into the local
// service and reports its status to a local git host as it goes (pending, imported with its broken
// links and the approval it needs, merged); a refused token leaves the import alone and shows in
// the mapping's health.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { type GitHostCall, startGitHostServer } from '../../support/git-host-server.js';
import { createTestRepo } from '../../support/git-repos.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const HOST_TOKEN = 'ghp_token-of-the-git-host';
let variables = 0;

interface MappingHealth {
  state: string;
  failures: Array<{ job: string; count: number; last: { code: string; message: string; hint?: string } }>;
}

async function setUp(options: { token: string; host: 'github' | 'gitlab' }) {
  const emulator = await startTestEmulator();
  const space = await createTestSpace(emulator, 'Docs');
  const host = await startGitHostServer({ tokens: [HOST_TOKEN], repos: ['acme/docs', 'group/docs'] });
  const repo = await createTestRepo();
  const sha = await repo.commit(
    {
      'docs/README.md': '# Welcome\n\nSee [install](install.md).\n',
      'docs/install.md': '# Install\n\nSee [the guide](missing.md).\n',
    },
    'Write the first docs',
  );
  await repo.push();
  // The token is read from the environment the configuration is read with.
  variables += 1;
  const tokenEnv = `DOCSYNC_TEST_STATUS_TOKEN_${variables}`;
  const prefix = uniquePrefix('commit-status');
  const yaml = `mappings:
  - name: docs
    space: ${space}
    git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s }
    changeRequest: { poll: 1s }
    merge: { enabled: true, approvals: 1 }
    report:
      ${
        options.host === 'github'
          ? `github: { repo: acme/docs, tokenEnv: ${tokenEnv}, apiUrl: "${host.githubApiUrl}" }`
          : `gitlab: { url: "${host.gitlabUrl}", project: group/docs, tokenEnv: ${tokenEnv} }`
      }
`;
  const daemon = await startTestDaemon({
    prefix,
    jobs: JOBS,
    service: emulator,
    yaml,
    env: { [tokenEnv]: options.token },
  });
  const state = new RedisMappingStateStore(testRedis(prefix), prefix);
  return { emulator, space, host, sha, daemon, state, tokenEnv };
}

const described = (calls: readonly GitHostCall[]) =>
  calls.map((call) => `${call.body.state}: ${call.body.description}`);

describe('commit statuses on the git host', () => {
  it('move from pending to imported with the change request, its broken links and approvals, then merged', async () => {
    const { emulator, space, host, sha, state } = await setUp({ token: HOST_TOKEN, host: 'github' });
    const imported = await waitFor(
      () =>
        host
          .posted()
          .find((call) =>
            /^imported into change request #\d+ - 1 broken link \(first: docs\/install\.md:3\) - needs 1 approval$/.test(
              String(call.body.description),
            ),
          ),
      'the status of the imported commit, with its link check and approvals',
    );
    const cr = await waitFor(async () => (await state.get('docs')).changeRequestId, 'the change request');
    const { body: changeRequest } = await callApi<{ number: number; urls: { app: string } }>(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}`,
      emulator.tokens.admin,
    );
    expect(imported).toMatchObject({
      host: 'github',
      repo: 'acme/docs',
      sha,
      token: HOST_TOKEN,
      body: {
        state: 'success',
        context: 'docsync',
        description: `imported into change request #${changeRequest.number} - 1 broken link (first: docs/install.md:3) - needs 1 approval`,
        target_url: changeRequest.urls.app,
      },
    });
    // The first status said the commit was being imported.
    expect(host.posted()[0]?.body).toEqual({
      state: 'pending',
      context: 'docsync',
      description: 'importing into the documentation service',
    });

    const approved = await callApi(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}/reviews`,
      emulator.tokens.reviewer,
      'POST',
      { status: 'approved' },
    );
    expect(approved.status).toBe(201);
    const merged = await waitFor(
      () =>
        host
          .posted()
          .find((call) => call.body.description === `merged (change request #${changeRequest.number})`),
      'the status of the merged commit',
    );
    expect(merged).toMatchObject({ sha, body: { state: 'success', target_url: changeRequest.urls.app } });
    // Every status went to the one commit, and none went back to pending once it was imported.
    const posted = host.posted();
    expect(new Set(posted.map((call) => call.sha))).toEqual(new Set([sha]));
    const firstDone = posted.findIndex((call) => call.body.state !== 'pending');
    expect(described(posted.slice(firstDone)).filter((line) => line.startsWith('pending'))).toEqual([]);
    expect(host.calls.every((call) => call.status === 201)).toBe(true);
  });

  it('leaves the import alone when GitLab refuses the token, and shows the problem in the health of the mapping', async () => {
    const { host, sha, daemon, state, tokenEnv } = await setUp({
      token: 'glpat-expired-token',
      host: 'gitlab',
    });
    const done = await waitFor(async () => {
      const now = await state.get('docs');
      return now.lastImportedSha === sha && now.changeRequestId !== undefined ? now : undefined;
    }, 'the import of the commit');
    expect(done.lastImport?.result).toBe('imported');
    const health = await waitFor(async () => {
      const status = (await (await fetch(`${daemon.httpAddress}/status`)).json()) as {
        mappings: MappingHealth[];
      };
      const mapping = status.mappings[0];
      return mapping?.failures.some((run) => run.job === 'report-commit-status') === true
        ? mapping
        : undefined;
    }, 'the reporting problem in /status');
    expect(health.state).not.toBe('ok');
    const run = health.failures.find((failure) => failure.job === 'report-commit-status');
    expect(run?.last).toMatchObject({
      code: 'GIT_HOST_REFUSED',
      message: 'gitlab:group/docs: commit status refused with 401 (401 Unauthorized)',
    });
    expect(run?.last.hint).toContain(`the environment variable ${tokenEnv}`);
    expect(JSON.stringify(health)).not.toContain('glpat-expired-token');
    expect(host.posted()).toEqual([]);
    expect(host.calls.length).toBeGreaterThan(0);
    expect(host.calls.every((call) => call.status === 401)).toBe(true);
  });
});
