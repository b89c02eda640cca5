// A GitHub App's installation tokens against a local server of GitHub's token endpoint that verifies
// each JWT with the app's public key: minted once and shared, renewed before GitHub's expires_at (a
// clock the test moves, for docsync and the server alike), and each wrong setting one clear error.
import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GitAuth } from '../../../src/config/git-auth-schema.js';
import { EnvironmentError } from '../../../src/errors/environment-error.js';
import { githubAppCredentials } from '../../../src/github-app/github-app-credentials.js';
import { GitHubAppError } from '../../../src/github-app/github-app-error.js';
import { failureHint } from '../../../src/state/failure-hint.js';
import { startGitHubAppServer } from '../../support/github-app-server.js';
import { captureLog, tempDir } from '../../support/test-context.js';

const APP_ID = '123456';
const INSTALLATION = '789';
const REPO = 'https://github.test/acme/docs.git';
const MINUTE = 60_000;

function rsaKey() {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

/** A clock both sides read, moved by the test. */
function testClock() {
  let at = Date.UTC(2025, 0, 1, 12);
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

async function setUp(
  options: { tokenLifetimeMs?: number; installationId?: string; signWith?: 'other-key' } = {},
) {
  const key = rsaKey();
  const clock = testClock();
  const server = await startGitHubAppServer({
    appId: APP_ID,
    key,
    installations: [INSTALLATION],
    now: clock.now,
    ...(options.tokenLifetimeMs === undefined ? {} : { tokenLifetimeMs: options.tokenLifetimeMs }),
  });
  const dir = await tempDir('github-app');
  const keyFile = join(dir, 'app.pem');
  const used = options.signWith === 'other-key' ? rsaKey() : key;
  await writeFile(keyFile, used.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
  const auth: Extract<GitAuth, { kind: 'github-app' }> = {
    kind: 'github-app',
    appId: APP_ID,
    installationId: options.installationId ?? INSTALLATION,
    apiUrl: server.apiUrl,
    privateKey: { file: keyFile },
  };
  const captured = captureLog();
  const credentials = githubAppCredentials(auth, { repo: REPO, log: captured.log, now: clock.now });
  return { server, clock, credentials, captured, keyFile, auth };
}

async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => expect.fail('expected a failure'),
    (error: unknown) => error,
  );
}

describe('GitHub App installation tokens', () => {
  it('mints one token for many callers at once and hands it out again', async () => {
    const { server, credentials, captured } = await setUp();
    const tokens = await Promise.all(Array.from({ length: 8 }, () => credentials.token()));
    expect(new Set(tokens)).toEqual(new Set(server.minted));
    expect(server.minted).toHaveLength(1);
    expect(await credentials.token()).toBe(server.minted[0]);
    expect(server.calls.filter((call) => call.kind === 'access-token')).toEqual([
      { kind: 'access-token', target: INSTALLATION, status: 201 },
    ]);
    expect(credentials.source).toBe(
      `the GitHub App ${APP_ID}, installation ${INSTALLATION} (git.auth.githubApp)`,
    );
    expect(captured.texts.join('\n')).not.toContain(server.minted[0]);
  });

  it("renews the token five minutes before GitHub's expires_at, with a fresh JWT the server takes", async () => {
    const { server, clock, credentials } = await setUp({ tokenLifetimeMs: 60 * MINUTE });
    const first = await credentials.token();
    clock.advance(55 * MINUTE - 1000);
    expect(await credentials.token()).toBe(first);
    clock.advance(1000);
    const second = await credentials.token();
    expect(second).not.toBe(first);
    expect(server.isCurrent(second)).toBe(true);
    // The old one still works for what is under way: it had five minutes left.
    expect(server.isCurrent(first)).toBe(true);
    expect(server.minted).toEqual([first, second]);
  });

  it('renews a short-lived token halfway through its life', async () => {
    const { server, clock, credentials } = await setUp({ tokenLifetimeMs: 4 * MINUTE });
    const first = await credentials.token();
    clock.advance(2 * MINUTE - 1000);
    expect(await credentials.token()).toBe(first);
    clock.advance(1000);
    expect(await credentials.token()).not.toBe(first);
    expect(server.minted).toHaveLength(2);
  });

  it("refuses for good a key that is not the app's, naming the key setting and the clock", async () => {
    const { server, credentials } = await setUp({ signWith: 'other-key' });
    const error = await failure(credentials.environment());
    expect(error).toBeInstanceOf(GitHubAppError);
    expect(error).toMatchObject({ code: 'GITHUB_APP_REFUSED', httpStatus: 401, retryable: false });
    expect((error as Error).message).toContain('git.auth.githubApp.privateKeyFile');
    expect((error as Error).message).toContain('clock');
    expect(server.calls[0]?.refused).toContain('signature');
    expect(failureHint(error, { mapping: { name: 'docs', space: 's1' } })).toContain(
      'git.auth.githubApp of mapping docs.privateKeyFile',
    );
  });

  it('names installationId when GitHub knows no such installation', async () => {
    const { credentials } = await setUp({ installationId: '999' });
    const error = await failure(credentials.token());
    expect(error).toMatchObject({ code: 'GITHUB_APP_REFUSED', httpStatus: 404, retryable: false });
    expect((error as Error).message).toContain('git.auth.githubApp.installationId');
    expect((error as Error).message).toContain('installation 999');
    expect(failureHint(error)).toContain('git.auth.githubApp.installationId');
  });

  it('retries a GitHub that fails: the failed mint is not kept, the next call mints', async () => {
    const { server, credentials } = await setUp();
    server.failNext(1, 502);
    const error = await failure(credentials.token());
    expect(error).toMatchObject({ code: 'GITHUB_APP_UNREACHABLE', httpStatus: 502, retryable: true });
    expect(await credentials.token()).toBe(server.minted[0]);
  });

  it('stops the start on a key file that is not a key, before asking GitHub', async () => {
    const { server, keyFile, auth, captured } = await setUp();
    await writeFile(keyFile, 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA not a pem\n');
    const build = () => githubAppCredentials(auth, { repo: REPO, log: captured.log });
    expect(build).toThrow(EnvironmentError);
    expect(build).toThrow(/git\.auth\.githubApp\.privateKeyFile: .*app\.pem is not a private key/);
    const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    await writeFile(keyFile, ecKey.export({ type: 'pkcs8', format: 'pem' }));
    expect(build).toThrow(/is an ec key, not the RSA key/);
    expect(() =>
      githubAppCredentials(
        { ...auth, privateKey: { file: join(keyFile, '..', 'missing.pem') } },
        { repo: REPO, log: captured.log },
      ),
    ).toThrow(/missing\.pem cannot be read \(ENOENT\)/);
    expect(server.calls).toEqual([]);
  });
});
