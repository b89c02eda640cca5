import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GitMirror, TreeEntry } from '../../../src/git/git-mirror.js';
import { collect } from '../../support/collect.js';
import { createGitFixture, type GitFixture } from './git-fixture.js';

let repo: GitFixture;
let sha: string;
let sub: string;
const big = randomBytes(3 * 1024 * 1024);

/**
 * A `git` first on PATH that writes each command line it runs to a log, then runs the real git;
 * `old` makes it turn `--batch-command` down as a git before 2.36 does.
 */
async function loggingGit(
  old: boolean,
): Promise<{ env: NodeJS.ProcessEnv; commands: () => Promise<string[]> }> {
  const bin = join(repo.root, old ? 'old-git-bin' : 'git-bin');
  const log = join(bin, 'commands.log');
  const real = await realGit();
  await mkdir(bin, { recursive: true });
  await writeFile(log, '');
  const refuse = old
    ? `for arg in "$@"; do if [ "$arg" = --batch-command ]; then echo "error: unknown option \\\`batch-command'" >&2; exit 129; fi; done\n`
    : '';
  await writeFile(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\n${refuse}exec '${real}' "$@"\n`);
  await chmod(join(bin, 'git'), 0o755);
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')),
  ) as NodeJS.ProcessEnv;
  env.PATH = `${bin}:${process.env.PATH ?? ''}`;
  return {
    env,
    commands: async () =>
      (await readFile(log, 'utf8'))
        .split('\n')
        .filter((line) => line !== '')
        // Without `--git-dir <dir>`: the subcommand and its arguments.
        .map((line) => line.replace(/^--git-dir \S+ /, '')),
  };
}

/** Runs git in the working clone with `input` on its stdin: its trimmed output. */
function runWithInput(args: string[], input: Buffer): string {
  return execFileSync('git', args, { cwd: repo.work, input }).toString('utf8').trim();
}

async function realGit(): Promise<string> {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const path = join(dir, 'git');
    if (
      await access(path, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return path;
  }
  throw new Error('git is not on PATH');
}

beforeEach(async () => {
  repo = await createGitFixture();
  await repo.write({
    'docs/README.md': '# Start\n',
    'docs/guides/install.md': '# Install\n',
    'docs/guides/deep/more/page one.md': '# Page one\n',
    'docs/guides-2.md': '# Guides 2\n',
    'docs/ünïcode/café.md': '# Café\n',
    'docs/assets/big.bin': big,
    'docs/same/README.md': '# Start\n',
    // Two folders of the same content: one tree, listed in both places.
    'docs/v1/page.md': '# Page\n',
    'docs/v1/deep/x.md': '# X\n',
    'docs/v2/page.md': '# Page\n',
    'docs/v2/deep/x.md': '# X\n',
    'docs/empty.txt': '',
    'outside.md': '# Not in docs\n',
  });
  await repo.link('docs/latest.md', 'guides/install.md');
  await chmod(join(repo.work, 'docs/README.md'), 0o755);
  sub = repo.commit('content');
  repo.git('update-index', '--add', '--cacheinfo', `160000,${sub},docs/vendor`);
  repo.git('-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '--quiet', '-m', 'submodule');
  sha = repo.git('rev-parse', 'HEAD');
  repo.push();
});

afterEach(async () => {
  await repo.cleanup();
});

const row = (entry: TreeEntry) => [entry.path, entry.mode, entry.blob, entry.size];

async function readAll(mirror: GitMirror, dir: string) {
  return readAllAt(mirror, sha, dir);
}

async function readAllAt(mirror: GitMirror, commit: string, dir: string) {
  const folder = await mirror.openFolder(commit, dir);
  if (folder === undefined) throw new Error(`no folder ${dir}`);
  const ids = folder.entries.filter((entry) => entry.mode !== '160000').map((entry) => entry.blob);
  const blobs = await collect(folder.readBlobs(ids));
  return { folder, blobs };
}

describe('GitMirror.openFolder', () => {
  it('lists a folder as ls-tree does and reads its blobs, all from one git process', async () => {
    const git = await loggingGit(false);
    const mirror = await repo.fetchedMirror({ env: git.env });
    const listed = await collect(mirror.listTree(sha, 'docs'));
    const treeHash = await mirror.treeHash(sha, 'docs');
    const before = (await git.commands()).length;

    const { folder, blobs } = await readAll(mirror, 'docs');
    expect(folder.treeHash).toBe(treeHash);
    // The same files, modes, ids and sizes in the same (git's) order: the submodule with size 0.
    expect(folder.entries.map(row)).toEqual(listed.map(row));
    expect(folder.entries.map((entry) => entry.path)).toEqual([
      'README.md',
      'assets/big.bin',
      'empty.txt',
      // A tree sorts as its name and a slash: `guides-2.md` before `guides/`.
      'guides-2.md',
      'guides/deep/more/page one.md',
      'guides/install.md',
      'latest.md',
      'same/README.md',
      'v1/deep/x.md',
      'v1/page.md',
      'v2/deep/x.md',
      'v2/page.md',
      'vendor',
      'ünïcode/café.md',
    ]);
    const byPath = new Map(
      folder.entries.filter((e) => e.mode !== '160000').map((e, i) => [e.path, blobs[i]?.data]),
    );
    expect(byPath.get('assets/big.bin')?.equals(big)).toBe(true);
    expect(byPath.get('ünïcode/café.md')?.toString()).toBe('# Café\n');
    expect(byPath.get('same/README.md')?.toString()).toBe('# Start\n');
    expect(byPath.get('latest.md')?.toString()).toBe('guides/install.md');
    expect((await git.commands()).slice(before)).toEqual(['cat-file --batch-command --buffer']);
  });

  it('lists the whole repository for "." and for ""', async () => {
    const mirror = await repo.fetchedMirror();
    for (const dir of ['.', '']) {
      const folder = await mirror.openFolder(sha, dir);
      expect(folder?.treeHash).toBe(repo.git('rev-parse', `${sha}^{tree}`));
      expect(folder?.entries.map((entry) => entry.path)).toContain('outside.md');
      expect(folder?.entries.map((entry) => entry.path)).toContain('docs/guides/install.md');
      folder?.close();
    }
  });

  it('gives undefined for a folder that is not there or is a file, and GIT_NOT_FOUND for an unknown commit', async () => {
    const mirror = await repo.fetchedMirror();
    expect(await mirror.openFolder(sha, 'nope')).toBeUndefined();
    // git names a missing path in its answer, spaces and all.
    expect(await mirror.openFolder(sha, 'docs/no such folder')).toBeUndefined();
    expect(await mirror.openFolder(sha, 'outside.md')).toBeUndefined();
    expect(await mirror.openFolder(sha, 'docs/assets/big.bin')).toBeUndefined();
    expect(await mirror.openFolder(sha, 'docs/vendor')).toBeUndefined();
    await expect(mirror.openFolder('f'.repeat(40), 'docs')).rejects.toMatchObject({
      name: 'GitError',
      code: 'GIT_NOT_FOUND',
    });
    await expect(mirror.openFolder(sha, '../up')).rejects.toMatchObject({ code: 'GIT_INVALID_INPUT' });
  });

  it('reads the modes of trees written by old tools as git does: 040000 a folder, 100664 a file', async () => {
    const writeBlob = (text: string) => runWithInput(['hash-object', '-w', '--stdin'], Buffer.from(text));
    const tree = (entries: [string, string, string][]) =>
      runWithInput(
        ['hash-object', '-w', '-t', 'tree', '--literally', '--stdin'],
        Buffer.concat(
          entries.map(([mode, name, oid]) =>
            Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(oid, 'hex')]),
          ),
        ),
      );
    const page = writeBlob('# Page\n');
    const tool = writeBlob('#!/bin/sh\n');
    const inner = tree([
      ['100664', 'a.md', page],
      ['100775', 'run.sh', tool],
    ]);
    const root = tree([
      ['040000', 'docs', inner],
      ['100644', 'top.md', page],
    ]);
    const commit = repo.git('commit-tree', root, '-p', sha, '-m', 'written by an old tool');
    repo.git('push', '--quiet', 'origin', `${commit}:refs/heads/main`);
    const mirror = await repo.fetchedMirror();
    const folder = await mirror.openFolder(commit, '');
    folder?.close();
    expect(folder?.entries.map(row)).toEqual((await collect(mirror.listTree(commit, ''))).map(row));
    expect(folder?.entries.map((entry) => [entry.path, entry.mode])).toEqual([
      ['docs/a.md', '100644'],
      ['docs/run.sh', '100755'],
      ['top.md', '100644'],
    ]);
  });

  it('stops git when its blobs are not read', async () => {
    const git = await loggingGit(false);
    const mirror = await repo.fetchedMirror({ env: git.env });
    const folder = await mirror.openFolder(sha, 'docs');
    if (folder === undefined) throw new Error('no folder docs');
    folder.close();
    // Read after a close: the process is gone, so the stream fails instead of hanging.
    await expect(collect(folder.readBlobs([folder.entries[0]?.blob ?? '']))).rejects.toMatchObject({
      name: 'GitError',
    });
  });

  it('lists a file or folder whose name is not UTF-8 as it reads, marked, and reads the rest, with any git', async () => {
    // Latin-1 `café` (0xe9), committed from an old system: a file in a folder that is UTF-8 (`été`),
    // then a folder at the top of the repository, listed from the root.
    const latin1 = (path: string, rest = '') =>
      Buffer.concat([Buffer.from(join(repo.work, path)), Buffer.from([0xe9]), Buffer.from(rest)]);
    await mkdir(join(repo.work, 'docs/été'), { recursive: true });
    await writeFile(latin1('docs/été/caf', '.md'), '# Café\n');
    // In a folder whose UTF-8 name holds a backslash: shown escaped too, by any git.
    await mkdir(join(repo.work, 'docs/back\\slash'), { recursive: true });
    await writeFile(latin1('docs/back\\slash/caf', '.md'), '# Café\n');
    const inFolder = repo.commit('a file name from an old system');
    await mkdir(latin1('caf'));
    await writeFile(latin1('caf', '/page.md'), '# Page\n');
    const atRoot = repo.commit('a folder name from an old system');
    repo.push();
    // The name byte by byte where it is not UTF-8. A git before 2.36 lists files only: the folder's
    // file is listed, under the folder's name as it reads.
    const inDocs = [
      { path: 'back\\x5cslash/caf\\xe9.md', mode: '100644' },
      { path: 'été/caf\\xe9.md', mode: '100644' },
    ];
    const fromRoot = inDocs.map((file) => ({ ...file, path: `docs/${file.path}` }));
    const cases = [
      { commit: inFolder, dir: 'docs', modern: inDocs, older: inDocs },
      {
        commit: atRoot,
        dir: '',
        modern: [{ path: 'caf\\xe9', mode: '40000' }, ...fromRoot],
        older: [{ path: 'caf\\xe9/page.md', mode: '100644' }, ...fromRoot],
      },
    ];
    for (const { commit, dir, modern, older } of cases)
      for (const old of [false, true]) {
        const mirror = await repo.fetchedMirror({ env: (await loggingGit(old)).env });
        const folder = await mirror.openFolder(commit, dir);
        if (folder === undefined) throw new Error(`no folder ${dir}`);
        const marked = folder.entries.filter((entry) => entry.nameNotUtf8 === true);
        expect(marked).toEqual(
          (old ? older : modern).map((one) => expect.objectContaining({ ...one, size: 0 })),
        );
        // The other files read as ever, from the same listing.
        const readable = folder.entries.filter(
          (entry) => entry.nameNotUtf8 === undefined && entry.mode !== '160000',
        );
        expect(readable.map((entry) => entry.path)).toContain(`${dir === '' ? 'docs/' : ''}ünïcode/café.md`);
        const blobs = await collect(folder.readBlobs(readable.map((entry) => entry.blob)));
        expect(blobs).toHaveLength(readable.length);
      }
  });

  it('with a git older than 2.36, lists and reads the same with three processes, and tries once', async () => {
    const modern = await readAll(await repo.fetchedMirror(), 'docs');
    const git = await loggingGit(true);
    const mirror = await repo.fetchedMirror({ env: git.env });
    const before = (await git.commands()).length;

    const old = await readAll(mirror, 'docs');
    expect(old.folder.treeHash).toBe(modern.folder.treeHash);
    expect(old.folder.entries.map(row)).toEqual(modern.folder.entries.map(row));
    expect(old.blobs.map((blob) => blob.data.toString('base64'))).toEqual(
      modern.blobs.map((blob) => blob.data.toString('base64')),
    );
    const first = (await git.commands()).slice(before);
    expect(first[0]).toBe('cat-file --batch-command --buffer');
    expect(first.slice(1).sort()).toEqual(
      ['cat-file --batch --buffer', 'cat-file --batch-check', `ls-tree -r -z --long ${sha}:docs`].sort(),
    );

    // Known from then on; a given tree id saves its lookup; a missing folder is still told.
    const again = (await git.commands()).length;
    const given = await mirror.openFolder(sha, 'docs', { treeHash: modern.folder.treeHash });
    expect(given?.entries.map(row)).toEqual(modern.folder.entries.map(row));
    expect(await mirror.openFolder(sha, 'nope', { treeHash: modern.folder.treeHash })).toBeUndefined();
    expect(await mirror.openFolder(sha, 'nope')).toBeUndefined();
    const later = (await git.commands()).slice(again);
    expect(later.filter((command) => command.includes('--batch-command'))).toEqual([]);
    expect(later[0]).toBe(`ls-tree -r -z --long ${sha}:docs`);
  });
});
