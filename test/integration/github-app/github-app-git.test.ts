// A GitHub App's installation token handed to git: real `git ls-remote` and a mirror's fetch against
// git http-backend behind Basic auth that takes user x-access-token and only a current installation
// token of the local GitHub (its clock the test's), so that a token past its hour is refused and
// the renewed one taken.
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { GitMirror } from '../../../src/git/git-mirror.js';
import { githubAppCredentials } from '../../../src/github-app/github-app-credentials.js';
import { startGitHttpServer } from '../../support/git-http-server.js';
import { createTestRepo } from '../../support/git-repos.js';
import { startGitHubAppServer } from '../../support/github-app-server.js';
import { captureLog, tempDir } from '../../support/test-context.js';

const run = promisify(execFile);
const MINUTE = 60_000;

async function setUp() {
  const repo = await createTestRepo();
  const first = await repo.commit({ 'docs/README.md': '# One\n' }, 'one');
  await repo.push();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let at = Date.UTC(2025, 0, 1, 12);
  const now = () => at;
  const github = await startGitHubAppServer({ appId: '42', key: privateKey, installations: ['7'], now });
  /** The tokens the git server takes: the installation tokens current on the test's clock. */
  const accepted: string[] = [];
  const acceptCurrent = () => accepted.splice(0, accepted.length, ...github.minted.filter(github.isCurrent));
  const git = await startGitHttpServer({
    root: dirname(repo.remote),
    username: 'x-access-token',
    tokens: accepted,
  });
  const url = git.url('remote');
  const home = await tempDir('github-app-home');
  const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
  const captured = captureLog();
  const credentials = githubAppCredentials(
    {
      kind: 'github-app',
      appId: '42',
      installationId: '7',
      apiUrl: github.apiUrl,
      privateKey: {
        env: 'DOCSYNC_TEST_APP_KEY',
        pem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      },
    },
    { repo: url, log: captured.log, now, baseEnv: env },
  );
  const lsRemote = async (added: Readonly<Record<string, string>>) =>
    (await run('git', ['ls-remote', url, 'refs/heads/main'], { env: { ...env, ...added } })).stdout;
  /** A mirror of the private remote, reached with the app's credentials. */
  const newMirror = async () =>
    new GitMirror({
      repo: url,
      dir: join(await tempDir('github-app-mirror'), 'm.git'),
      log: captured.log,
      env,
      credentials,
    });
  return {
    first,
    github,
    newMirror,
    git,
    url,
    env,
    credentials,
    captured,
    lsRemote,
    acceptCurrent,
    advance: (ms: number) => (at += ms),
  };
}

describe("a GitHub App's token handed to git", () => {
  it('lets git ls-remote and a mirror read the private repository as x-access-token', async () => {
    const { first, github, git, credentials, captured, lsRemote, acceptCurrent, newMirror } = await setUp();
    const added = await credentials.environment();
    acceptCurrent();
    expect(await lsRemote(added)).toContain(first);
    const mirror = await newMirror();
    await mirror.fetch();
    expect(await mirror.resolve('main')).toBe(first);
    expect(github.minted).toHaveLength(1);
    expect(git.requests.every((request) => !request.tokenInArguments)).toBe(true);
    expect(git.requests.some((request) => request.authenticated && request.status === 200)).toBe(true);
    expect(captured.texts.join('\n')).not.toContain(github.minted[0]);
  });

  it('is refused with a token past its hour, and reads again with the renewed one', async () => {
    const { first, github, credentials, lsRemote, acceptCurrent, advance } = await setUp();
    const before = await credentials.environment();
    advance(61 * MINUTE);
    const after = await credentials.environment();
    acceptCurrent();
    await expect(lsRemote(before)).rejects.toMatchObject({
      stderr: expect.stringMatching(/Authentication failed|could not read Username|401/),
    });
    expect(await lsRemote(after)).toContain(first);
    expect(github.minted).toHaveLength(2);
    expect(after.DOCSYNC_GIT_PASSWORD).toBe(github.minted[1]);
  });

  it('mints a new token for the next fetch when the remote refused one revoked before its time', async () => {
    const { first, github, credentials, acceptCurrent, newMirror } = await setUp();
    const mirror = await newMirror();
    // Minted, then revoked at GitHub before the fetch: the git server takes no token yet.
    await credentials.environment();
    await expect(mirror.fetch()).rejects.toMatchObject({ code: 'GIT_AUTH' });
    expect(github.minted).toHaveLength(1);
    // The refused token is forgotten though its hour is not over: the next command gets a new one.
    await credentials.environment();
    expect(github.minted).toHaveLength(2);
    acceptCurrent();
    await mirror.fetch();
    expect(await mirror.resolve('main')).toBe(first);
  });
});
