import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isGitError } from '../../../src/git/git-error.js';
import type { GitMirror } from '../../../src/git/git-mirror.js';
import { createGitFixture, type GitFixture } from './git-fixture.js';

let repo: GitFixture;

beforeEach(async () => {
  repo = await createGitFixture();
});

afterEach(async () => {
  await repo.cleanup();
});

const AUTHOR = { name: 'Docs Bot', email: 'bot@example.com' };
const files = (entries: Record<string, string>) =>
  new Map(Object.entries(entries).map(([path, text]) => [path, Buffer.from(text)]));

/** Writes `entries` into `dir` over `parent` in the mirror, by the bot, now, removing nothing. */
const writeOver = (
  mirror: GitMirror,
  parent: string,
  dir: string,
  entries: Record<string, string>,
  message: string,
) =>
  mirror.writeFolderCommit({ parent, dir, files: files(entries), author: AUTHOR, message, date: new Date() });

describe('GitMirror.writeFolderCommit and push', () => {
  it('writes files into one folder, deletes the paths asked, keeps the rest of the tree, and pushes without force', async () => {
    const first = await repo.publish(
      { 'docs/old.md': '# Old\n', 'docs/keep.md': '# Keep\n', 'src/app.js': 'x\n', 'README.md': 'root\n' },
      'first',
    );
    const mirror = await repo.fetchedMirror();
    const sha = await mirror.writeFolderCommit({
      parent: first,
      dir: 'docs',
      files: files({ 'keep.md': '# Keep\n', 'guides/new.md': '# New\n' }),
      remove: ['old.md', 'never-there.md'],
      author: AUTHOR,
      message: 'docs: from the space\n\nDocsync-Revision: rev_1\n',
      date: new Date('2026-01-02T03:04:05Z'),
    });
    // Written into the mirror only; the remote has it once pushed.
    expect(repo.remoteGit('rev-parse', 'main')).toBe(first);
    await mirror.push(sha, 'main');
    expect(repo.remoteGit('rev-parse', 'main')).toBe(sha);
    expect(repo.remoteGit('ls-tree', '-r', '--name-only', 'main').split('\n')).toEqual([
      'README.md',
      'docs/guides/new.md',
      'docs/keep.md',
      'src/app.js',
    ]);
    expect(repo.remoteGit('log', '-1', '--format=%an <%ae> %aI%n%B', 'main')).toBe(
      'Docs Bot <bot@example.com> 2026-01-02T03:04:05+00:00\ndocs: from the space\n\nDocsync-Revision: rev_1',
    );
    // No private refs are left behind in the mirror.
    expect(await mirror.resolve('main')).toBe(sha);
  });

  it('keeps the mode of a file it writes over, writes new files 100644, and leaves unnamed paths alone', async () => {
    await repo.write({
      'docs/build.sh': '#!/bin/sh\necho one\n',
      'docs/page.md': '# Page\n',
      'docs/.gitignore': '_book/\n',
      'docs/drafts/notes.md': '# Notes\n',
    });
    await chmod(join(repo.work, 'docs/build.sh'), 0o755);
    const first = repo.commit('first');
    repo.push();
    const mirror = await repo.fetchedMirror();
    const written = {
      'build.sh': '#!/bin/sh\necho two\n',
      'tool.sh': '#!/bin/sh\n',
      'page.md': '# Page, edited\n',
    };
    const sha = await writeOver(mirror, first, 'docs', written, 'docs: modes\n');
    // Written into the mirror: read it there.
    expect(
      repo
        .git('--git-dir', mirror.dir, 'ls-tree', '-r', sha)
        .replace(/ [0-9a-f]{40}\t/g, ' ')
        .split('\n'),
    ).toEqual([
      '100644 blob docs/.gitignore',
      '100755 blob docs/build.sh',
      '100644 blob docs/drafts/notes.md',
      '100644 blob docs/page.md',
      '100644 blob docs/tool.sh',
    ]);
    expect(repo.git('--git-dir', mirror.dir, 'diff', '--name-only', first, sha).split('\n')).toEqual([
      'docs/build.sh',
      'docs/page.md',
      'docs/tool.sh',
    ]);
  });

  it('writes thousands of files and one larger than a write batch byte for byte in one commit', async () => {
    const first = await repo.publish({ 'docs/gone.md': '# Gone\n', 'docs/keep.md': '# Keep\n' }, 'first');
    const mirror = await repo.fetchedMirror();
    const many = new Map<string, Buffer>();
    for (let n = 0; n < 3000; n += 1)
      many.set(
        `part-${Math.floor(n / 100)}/page-${n}.md`,
        Buffer.from(`# Page ${n}\n\n${'text '.repeat(n % 50)}\n`),
      );
    // Bytes of every value, and more than one batch of fast-import's input on its own.
    const large = Buffer.alloc(700 * 1024, 0);
    for (let i = 0; i < large.length; i += 1) large[i] = (i * 31) % 256;
    many.set('images/large.bin', large);
    const sha = await mirror.writeFolderCommit({
      parent: first,
      dir: 'docs',
      files: many,
      remove: ['gone.md'],
      author: AUTHOR,
      message: 'docs: many\n',
      date: new Date(),
    });
    const listed = repo.git('--git-dir', mirror.dir, 'ls-tree', '-r', '--name-only', sha).split('\n');
    expect(listed).toHaveLength(3002);
    expect(listed).toContain('docs/keep.md');
    expect(listed).not.toContain('docs/gone.md');
    expect(await mirror.readFile(sha, 'docs/images/large.bin')).toEqual(large);
    for (const path of ['part-0/page-0.md', 'part-17/page-1749.md', 'part-29/page-2999.md'])
      expect(await mirror.readFile(sha, `docs/${path}`)).toEqual(many.get(path));
  });

  it('refuses to overwrite a branch that moved, as GIT_PUSH_REJECTED, a retryable error', async () => {
    const first = await repo.publish({ 'docs/a.md': '# A\n' }, 'first');
    const mirror = await repo.fetchedMirror();
    const moved = await repo.publish({ 'docs/a.md': '# A, moved\n' }, 'moved in git');
    const sha = await writeOver(
      mirror,
      first,
      'docs',
      { 'a.md': '# A from the space\n' },
      'docs: from the space\n',
    );
    const error = await mirror.push(sha, 'main').catch((caught: unknown) => caught);
    expect(isGitError(error) && error.code).toBe('GIT_PUSH_REJECTED');
    expect(isGitError(error) && error.retryable).toBe(true);
    expect(repo.remoteGit('rev-parse', 'main')).toBe(moved);
    // A new branch takes it: that is where conflicts go.
    await mirror.push(sha, 'docsync/conflict-rev_2');
    expect(repo.remoteGit('rev-parse', 'docsync/conflict-rev_2')).toBe(sha);
  });

  it('lets a fetch and a push run at once in one process without either failing on a held ref', async () => {
    let parent = await repo.publish({ 'docs/page.md': '# 0\n' }, 'first');
    const mirror = await repo.fetchedMirror();
    // A fetch reads `main`, then moves it; a push's update-ref in between made git refuse the fetch
    // ("cannot lock ref 'refs/heads/main': is at X but expected Y"), a permanent poll failure.
    for (let round = 1; round <= 40; round += 1) {
      const sha = await writeOver(mirror, parent, 'docs', { 'page.md': `# ${round}\n` }, `round ${round}`);
      // The fetch starts at a different moment of the push each round.
      const fetchLater = sleep(round % 20).then(() => mirror.fetch());
      await Promise.all([mirror.push(sha, 'main'), fetchLater]);
      expect(await mirror.resolve('main')).toBe(sha);
      parent = sha;
    }
    expect(repo.remoteGit('rev-parse', 'main')).toBe(parent);
  });

  it('pushes in an operator environment with editors, pagers and git credentials settings', async () => {
    const first = await repo.publish({ 'docs/a.md': '# A\n' }, 'first');
    const mirror = await repo.fetchedMirror({
      env: {
        PATH: process.env.PATH,
        HOME: repo.root,
        EDITOR: 'vim',
        GIT_EDITOR: 'vim',
        PAGER: 'less',
        GIT_SSH_COMMAND: 'ssh -o BatchMode=yes',
        GIT_ASKPASS: '/bin/false',
        GIT_SSL_CAINFO: '/etc/ssl/certs/ca-certificates.crt',
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'http.extraHeader',
        GIT_CONFIG_VALUE_0: 'X-Test: 1',
      },
    });
    const sha = await writeOver(mirror, first, '.', { 'docs/a.md': '# A again\n' }, 'whole tree\n');
    await mirror.push(sha, 'main');
    expect(repo.remoteGit('rev-parse', 'main')).toBe(sha);
  });

  it('refuses a branch name that is an option or a bad ref', async () => {
    const first = await repo.publish({ 'a.md': '# A\n' }, 'first');
    const mirror = await repo.fetchedMirror();
    for (const branch of ['--force', 'a..b', 'x:y'])
      await expect(mirror.push(first, branch)).rejects.toMatchObject({ code: 'GIT_INVALID_INPUT' });
  });
});
