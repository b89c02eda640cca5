import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitError } from '../../../src/git/git-error.js';
import { GitMirror } from '../../../src/git/git-mirror.js';
import { tokenCredentials } from '../../../src/git/token-credentials.js';
import { failureHint } from '../../../src/state/failure-hint.js';
import { startGitHttpServer } from '../../support/git-http-server.js';
import { createTestRepo } from '../../support/git-repos.js';
import { captureLog, tempDir } from '../../support/test-context.js';

const TOKEN = 'ghp_privateRemoteToken0123456789abcdef';
const USER = 'x-access-token';

async function privateRepo() {
  const repo = await createTestRepo();
  const first = await repo.commit({ 'docs/README.md': '# One\n' }, 'one');
  await repo.push();
  const server = await startGitHttpServer({ root: dirname(repo.remote), username: USER, tokens: [TOKEN] });
  const home = await tempDir('git-home');
  // The operator's own helper, which would answer first with a token the server refuses.
  const globalConfig = join(home, 'gitconfig');
  await writeFile(
    globalConfig,
    '[credential]\n\thelper = "!f() { echo username=someone; echo password=operators-token; }; f"\n',
  );
  const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_GLOBAL: globalConfig };
  const url = server.url('remote');
  const dir = await tempDir('token-mirror');
  /** A mirror of the remote reached with `token` given by git.auth.tokenEnv. */
  const mirrorWith = (token: string) =>
    new GitMirror({
      repo: url,
      dir: join(dir, 'm.git'),
      log: captureLog().log,
      env,
      credentials: tokenCredentials(
        { kind: 'token', tokenEnv: 'DOCS_GIT_TOKEN', username: USER, token },
        url,
        env,
      ),
    });
  return { repo, first, server, mirrorWith };
}

async function filesUnder(dir: string): Promise<string> {
  const texts: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) texts.push(await readFile(join(entry.parentPath, entry.name), 'latin1'));
  }
  return texts.join('\n');
}

describe('a token of git.auth', () => {
  it('fetches and pushes through git http-backend, the token in no argument list and no file of the mirror', async () => {
    const { repo, first, server, mirrorWith } = await privateRepo();
    const mirror = mirrorWith(TOKEN);

    await mirror.fetch();
    expect(await mirror.resolve('main')).toBe(first);
    const second = await mirror.writeFolderCommit({
      parent: first,
      dir: 'docs',
      files: new Map([['page.md', Buffer.from('# Page\n')]]),
      message: 'from the space',
      author: { name: 'Docs', email: 'docs@example.com' },
      date: new Date('2026-01-01T00:00:00Z'),
    });
    await mirror.push(second, 'main');

    expect(await repo.git('ls-remote', repo.remote, 'refs/heads/main')).toContain(second);
    expect(
      server.requests.some((request) => request.service === 'git-receive-pack' && request.status === 200),
    ).toBe(true);
    expect(server.requests.filter((request) => request.tokenInArguments)).toEqual([]);
    expect(await filesUnder(mirror.dir)).not.toContain(TOKEN);
  });

  it('fails as GIT_AUTH at once with a wrong token, naming the variable and never the token', async () => {
    const { mirrorWith } = await privateRepo();
    const wrong = 'ghp_expiredToken_abcdef0123456789';
    const mirror = mirrorWith(wrong);

    const started = performance.now();
    const error = await mirror.fetch().catch((thrown: unknown) => thrown);
    // No prompt waited on: the refusal is the answer.
    expect(performance.now() - started).toBeLessThan(10_000);

    expect(error).toBeInstanceOf(GitError);
    expect(error).toMatchObject({ code: 'GIT_AUTH', credentials: { setting: 'git.auth.tokenEnv' } });
    const hint = failureHint(error, { mapping: { name: 'docs', space: 's1' } });
    expect(hint).toBe(
      'the remote refused the token in DOCS_GIT_TOKEN (git.auth.tokenEnv) of mapping docs: check it is valid, not expired, and may read the repository (and push to it, for space-to-git)',
    );
    expect(JSON.stringify({ message: (error as Error).message, error, hint })).not.toContain(wrong);
  });
});
