import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitError, isGitError } from '../../../src/git/git-error.js';
import { trailerValues } from '../../../src/git/parse-commit-log.js';
import { createGitFixture, type GitFixture } from './git-fixture.js';

let repo: GitFixture;

beforeEach(async () => {
  repo = await createGitFixture();
});

afterEach(async () => {
  await repo.cleanup();
});

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

describe('GitMirror.fetch and resolve', () => {
  it('creates the mirror from a local path and fetches new commits', async () => {
    const first = await repo.publish({ 'docs/README.md': '# One\n' }, 'one');
    const mirror = repo.mirror();

    await mirror.fetch();
    expect(await mirror.resolve('main')).toBe(first);

    const second = await repo.publish({ 'docs/README.md': '# Two\n' }, 'two');
    expect(await mirror.resolve('main')).toBe(first);
    await mirror.fetch();
    expect(await mirror.resolve('main')).toBe(second);
  });

  it('fetches through a file:// URL', async () => {
    const sha = await repo.publish({}, 'only');
    const mirror = await repo.fetchedMirror({ repo: repo.remoteUrl });
    expect(await mirror.resolve('main')).toBe(sha);
  });

  it('gives no sha for a missing branch, and forgets a branch deleted on the remote', async () => {
    repo.commit('base');
    repo.push();
    repo.push({ branch: 'draft' });
    const mirror = await repo.fetchedMirror();
    expect(await mirror.resolve('draft')).toMatch(/^[0-9a-f]{40}$/);
    expect(await mirror.resolve('nope')).toBeUndefined();

    repo.git('push', '--quiet', 'origin', '--delete', 'draft');
    await mirror.fetch();
    expect(await mirror.resolve('draft')).toBeUndefined();
  });

  it('shares one fetch between concurrent callers', async () => {
    repo.commit('base');
    repo.push();
    const mirror = repo.mirror();
    const [a, b] = [mirror.fetch(), mirror.fetch()];
    expect(a).toBe(b);
    await Promise.all([a, b]);
  });

  it('refuses a branch name that git would read as something else', async () => {
    const mirror = repo.mirror();
    for (const name of ['-x', 'a..b', 'main@{1}', 'a b', 'x:y']) {
      await expect(mirror.resolve(name)).rejects.toMatchObject({ code: 'GIT_INVALID_INPUT' });
    }
  });
});

describe('GitMirror.isAncestor', () => {
  it('is true along the branch and false after a force-push rewrote it', async () => {
    const base = repo.commit('base');
    const old = await repo.publish({}, 'old tip');
    const mirror = await repo.fetchedMirror();
    expect(await mirror.isAncestor(base, old)).toBe(true);

    repo.git('reset', '--quiet', '--hard', base);
    const rewritten = repo.commit('rewritten');
    repo.push({ force: true });
    await mirror.fetch();
    expect(await mirror.resolve('main')).toBe(rewritten);
    expect(await mirror.isAncestor(old, rewritten)).toBe(false);
    expect(await mirror.isAncestor(base, rewritten)).toBe(true);
  });

  it('is false for an ancestor the mirror never had, and fails for an unknown descendant', async () => {
    const tip = await repo.publish({}, 'tip');
    const mirror = await repo.fetchedMirror();
    const unknown = 'f'.repeat(40);
    expect(await mirror.isAncestor(unknown, tip)).toBe(false);
    await expect(mirror.isAncestor(tip, unknown)).rejects.toMatchObject({ code: 'GIT_NOT_FOUND' });
  });
});

describe('GitMirror.commitsTouching and commit', () => {
  it('lists only the commits that change the folder, newest first, with their trailers', async () => {
    await repo.write({ 'docs/README.md': '# Start\n' });
    const first = repo.commit('docs: start');
    await repo.write({ 'src/app.ts': 'export {};\n' });
    repo.commit('code only');
    await repo.write({ 'docs/guide.md': '# Guide\n' });
    const third = repo.commit(
      'docs: add the guide',
      'Explains it.',
      'Docsync-Revision: rev_1\nCo-authored-by: A <a@example.com>',
    );
    await repo.publish({}, 'empty');
    const mirror = await repo.fetchedMirror();
    const tip = (await mirror.resolve('main')) ?? '';

    const commits = await mirror.commitsTouching({ to: tip }, 'docs');
    expect(commits.map((commit) => commit.sha)).toEqual([third, first]);
    const [newest] = commits;
    expect(newest).toMatchObject({
      shortSha: third.slice(0, newest?.shortSha.length),
      subject: 'docs: add the guide',
      authorName: 'Docs Writer',
      authorEmail: 'writer@example.com',
      trailers: { 'docsync-revision': ['rev_1'], 'co-authored-by': ['A <a@example.com>'] },
    });
    expect(newest?.body).toContain('Explains it.');
    expect(newest?.committedAt).toBeInstanceOf(Date);
    expect(trailerValues(newest ?? { trailers: {} }, 'Docsync-Revision')).toEqual(['rev_1']);

    expect((await mirror.commitsTouching({ from: first, to: tip }, 'docs')).map((c) => c.sha)).toEqual([
      third,
    ]);
    expect(await mirror.commitsTouching({ from: third, to: tip }, 'docs')).toEqual([]);
    expect(await mirror.commitsTouching({ to: tip }, 'docs', { limit: 1 })).toHaveLength(1);
    // '.' is the whole repository: every commit that changes something, not the empty one.
    expect(await mirror.commitsTouching({ to: tip }, '.')).toHaveLength(3);
    expect(await mirror.commitsTouching({ to: tip }, 'nowhere')).toEqual([]);
  });

  it('reads one commit, and fails with GIT_NOT_FOUND for an unknown one', async () => {
    const sha = await repo.publish({}, 'subject line', 'Body text.');
    const mirror = await repo.fetchedMirror();
    expect(await mirror.commit(sha)).toMatchObject({
      sha,
      subject: 'subject line',
      body: 'Body text.',
      trailers: {},
    });
    const failure = await mirror.commit('0'.repeat(40)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GitError);
    expect(failure).toMatchObject({ code: 'GIT_NOT_FOUND', retryable: false });
  });
});

describe('GitMirror.treeHash and readFile', () => {
  it('gives equal ids for equal folder content and another id after a change', async () => {
    await repo.write({ 'docs/README.md': '# Same\n', 'docs/a/b.md': '# B\n' });
    const first = repo.commit('docs');
    await repo.write({ 'other.txt': 'outside the folder\n' });
    const second = repo.commit('outside');
    const third = await repo.publish({ 'docs/a/b.md': '# B, changed\n' }, 'change');
    const mirror = await repo.fetchedMirror();

    const hash = await mirror.treeHash(first, 'docs');
    expect(hash).toMatch(/^[0-9a-f]{40}$/);
    expect(await mirror.treeHash(second, 'docs')).toBe(hash);
    expect(await mirror.treeHash(second, './docs/')).toBe(hash);
    expect(await mirror.treeHash(third, 'docs')).not.toBe(hash);
    expect(await mirror.treeHash(third, 'missing')).toBeUndefined();
    expect(await mirror.treeHash(third, 'docs/README.md')).toBeUndefined();
    expect(await mirror.treeHash(third, '.')).toMatch(/^[0-9a-f]{40}$/);
    await expect(mirror.treeHash('1'.repeat(40), 'docs')).rejects.toMatchObject({ code: 'GIT_NOT_FOUND' });
    await expect(mirror.treeHash(third, '../up')).rejects.toMatchObject({ code: 'GIT_INVALID_INPUT' });
  });

  it('reads a file at a commit, and nothing for a missing path or a folder', async () => {
    const sha = await repo.publish({ 'docs/.gitbook.yaml': 'root: ./\n' }, 'layout');
    const mirror = await repo.fetchedMirror();
    expect((await mirror.readFile(sha, 'docs/.gitbook.yaml'))?.toString()).toBe('root: ./\n');
    expect(await mirror.readFile(sha, 'docs/missing.yaml')).toBeUndefined();
    expect(await mirror.readFile(sha, 'docs')).toBeUndefined();
  });
});

describe('GitMirror failures', () => {
  it('keeps credentials of the remote URL out of the error', async () => {
    const mirror = repo.mirror({ repo: 'https://user:secret@127.0.0.1:9/x.git' });
    const failure = await mirror.fetch().catch((error: unknown) => error);
    expect(isGitError(failure)).toBe(true);
    if (!isGitError(failure)) return;
    expect(failure.code).toBe('GIT_NETWORK');
    expect(failure.retryable).toBe(true);
    expect(failure.command).toContain('https://***@127.0.0.1:9/x.git');
    const everything = [
      failure.message,
      failure.command,
      failure.stderr,
      String(failure.stack),
      JSON.stringify(failure),
    ];
    for (const text of everything) expect(text).not.toContain('secret');
    expect(await exists(mirror.dir)).toBe(false);
  });

  it('says GIT_NOT_FOUND, not retryable, for a remote that does not exist', async () => {
    const mirror = repo.mirror({ repo: join(repo.root, 'no-such-remote.git') });
    await expect(mirror.fetch()).rejects.toMatchObject({ code: 'GIT_NOT_FOUND', retryable: false });
  });

  it('reports GIT_UNAVAILABLE when git cannot be started', async () => {
    const mirror = repo.mirror({ env: { PATH: join(repo.root, 'empty') } });
    await expect(mirror.fetch()).rejects.toMatchObject({ code: 'GIT_UNAVAILABLE' });
  });
});
