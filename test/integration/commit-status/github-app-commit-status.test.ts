// Commit statuses posted with a GitHub App's installation token (report.github without tokenEnv)
// against a local GitHub that mints the tokens, verifies the app's JWT, and takes a status only with
// a token it minted that has not expired: the token is asked for before each post, so a status
// posted after the first token's hour goes with a renewed one.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { postCommitStatus } from '../../../src/commit-status/post-commit-status.js';
import type { GitHostReport } from '../../../src/commit-status/report-config-schema.js';
import { statusToken } from '../../../src/commit-status/status-token.js';
import { githubAppCredentials } from '../../../src/github-app/github-app-credentials.js';
import { failureOf } from '../../../src/state/failure-of.js';
import { startGitHubAppServer } from '../../support/github-app-server.js';
import { captureLog } from '../../support/test-context.js';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const MINUTE = 60_000;
const signal = new AbortController().signal;
const success = { state: 'success', description: 'imported' } as const;

async function setUp(installationId = '789') {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let at = Date.UTC(2025, 0, 1, 12);
  const now = () => at;
  const server = await startGitHubAppServer({ appId: '42', key: privateKey, installations: ['789'], now });
  const credentials = githubAppCredentials(
    {
      kind: 'github-app',
      appId: '42',
      installationId,
      apiUrl: server.apiUrl,
      privateKey: {
        env: 'DOCSYNC_TEST_APP_KEY',
        pem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      },
    },
    { repo: 'https://github.test/acme/docs.git', log: captureLog().log, now },
  );
  const report: GitHostReport = { host: 'github', apiUrl: server.apiUrl, repo: 'acme/docs' };
  return { server, credentials, report, advance: (ms: number) => (at += ms) };
}

describe('commit statuses with a GitHub App', () => {
  it("posts with the app's installation token, and with a renewed one once the first has aged", async () => {
    const { server, credentials, report, advance } = await setUp();
    const token = statusToken(report, credentials);
    expect(await postCommitStatus(report, SHA, success, signal, { token })).toEqual({ id: 1 });
    expect(await postCommitStatus(report, SHA, success, signal, { token })).toEqual({ id: 2 });
    // Past the first token's hour: the server no longer takes it.
    advance(61 * MINUTE);
    expect(server.isCurrent(server.minted[0] ?? '')).toBe(false);
    expect(await postCommitStatus(report, SHA, success, signal, { token })).toEqual({ id: 3 });
    const statuses = server.calls.filter((call) => call.kind === 'status');
    expect(statuses.map((call) => [call.token, call.status])).toEqual([
      [server.minted[0], 201],
      [server.minted[0], 201],
      [server.minted[1], 201],
    ]);
    expect(server.minted).toHaveLength(2);
  });

  it('fails the report with a hint naming installationId when the app has no such installation', async () => {
    const { server, credentials, report } = await setUp('790');
    const error = await postCommitStatus(report, SHA, success, signal, {
      token: statusToken(report, credentials),
    }).then(
      () => expect.fail('expected a refusal'),
      (failure: unknown) => failure,
    );
    expect(error).toMatchObject({ code: 'GITHUB_APP_REFUSED', retryable: false });
    const recorded = failureOf(error, new Date(), { mapping: { name: 'docs', space: 's1', report } });
    expect(recorded.hint).toContain('git.auth.githubApp of mapping docs.installationId');
    expect(server.calls.filter((call) => call.kind === 'status')).toEqual([]);
  });

  it('refuses to post without a token rather than post without one', async () => {
    const { server, report } = await setUp();
    await expect(postCommitStatus(report, SHA, success, signal)).rejects.toMatchObject({
      code: 'GIT_HOST_REFUSED',
      message: expect.stringContaining('report.github has no tokenEnv'),
    });
    expect(server.calls).toEqual([]);
  });
});
