import { randomBytes } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleGitFolder } from '../../../src/content/bundle-git-folder.js';
import { bundleWorkingFolder } from '../../../src/content/bundle-working-folder.js';
import type { DocsPage } from '../../../src/content/docs-tree.js';
import { folderToTree } from '../../../src/content/folder-to-tree.js';
import { readZip } from '../../../src/content/read-zip.js';
import type { GitMirror } from '../../../src/git/git-mirror.js';
import { SAMPLE_DOCS } from '../../support/docs-archives.js';
import { createGitFixture, type Files, type GitFixture } from './git-fixture.js';

let repo: GitFixture;
let mirror: GitMirror;
let out: string;

beforeEach(async () => {
  repo = await createGitFixture();
  mirror = repo.mirror();
  out = join(repo.root, 'bundle.zip');
});

afterEach(async () => {
  await repo.cleanup();
});

/** Commits `files`, pushes, fetches, and returns the commit. */
async function commitDocs(files: Files, message = 'docs'): Promise<string> {
  await repo.write(files);
  const sha = repo.commit(message);
  repo.push();
  await mirror.fetch();
  return sha;
}

function under(folder: string, files: Files): Files {
  return Object.fromEntries(Object.entries(files).map(([path, data]) => [`${folder}/${path}`, data]));
}

function outline(pages: readonly DocsPage[]): unknown[] {
  return pages.map((page) => (page.pages.length === 0 ? page.title : { [page.title]: outline(page.pages) }));
}

describe('bundleGitFolder', () => {
  it('bundles the folder at a commit into a zip that reads back as its pages', async () => {
    const sha = await commitDocs({ ...under('docs', SAMPLE_DOCS), 'README.md': '# Repository, not docs\n' });
    const result = await bundleGitFolder(mirror, sha, 'docs', out);

    expect(result).toMatchObject({ files: Object.keys(SAMPLE_DOCS).length, skipped: 0, outFile: out });
    expect(result.treeHash).toBe(await mirror.treeHash(sha, 'docs'));
    const entries = await readZip(await readFile(out));
    expect([...entries.keys()].sort()).toEqual(Object.keys(SAMPLE_DOCS).sort());
    const tree = folderToTree(entries);
    expect(outline(tree.pages)).toEqual(['Welcome', { Guides: ['Installing', 'Configure'] }, 'FAQ']);
    expect(result.bytes).toBe([...entries.values()].reduce((sum, data) => sum + data.length, 0));
  });

  it('honours root, readme and summary of .gitbook.yaml, and leaves the file out', async () => {
    const sha = await commitDocs({
      'docs/.gitbook.yaml': 'root: ./content/\nstructure:\n  readme: intro.md\n  summary: toc.md\n',
      'docs/notes.md': '# Outside the root\n',
      'docs/content/intro.md': '# Introduction\n',
      'docs/content/toc.md': '# Table\n\n* [Intro](intro.md)\n* [Setup](setup.md)\n',
      'docs/content/setup.md': '# Setup\n',
    });
    await bundleGitFolder(mirror, sha, 'docs', out);
    const entries = await readZip(await readFile(out));
    expect([...entries.keys()]).toEqual(['README.md', 'SUMMARY.md', 'setup.md']);
    expect(entries.get('README.md')?.toString()).toBe('# Introduction\n');
    expect(entries.get('SUMMARY.md')?.toString()).toBe(
      '# Table\n\n* [Intro](README.md)\n* [Setup](setup.md)\n',
    );
    expect(outline(folderToTree(entries).pages)).toEqual(['Intro', 'Setup']);
  });

  it('skips symbolic links and submodules and counts them', async () => {
    await repo.write(under('docs', { 'README.md': '# Start\n' }));
    await repo.link('docs/link.md', 'README.md');
    const sub = repo.commit('first');
    repo.git('update-index', '--add', '--cacheinfo', `160000,${sub},docs/vendor`);
    // Committed without `add --all`, which would drop the gitlink: no checkout exists at docs/vendor.
    repo.git('-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '--quiet', '-m', 'submodule');
    const sha = repo.git('rev-parse', 'HEAD');
    repo.push();
    await mirror.fetch();

    const result = await bundleGitFolder(mirror, sha, 'docs', out);
    expect(result).toMatchObject({ files: 1, skipped: 2 });
    expect([...(await readZip(await readFile(out))).keys()]).toEqual(['README.md']);
  });

  it('gives the same bytes for the same folder content, at any commit', async () => {
    const files = under('docs', { ...SAMPLE_DOCS, 'assets/data.bin': randomBytes(200_000) });
    const first = await commitDocs(files);
    const second = await commitDocs({ 'elsewhere.txt': 'not docs\n' });
    const a = await bundleGitFolder(mirror, first, 'docs', join(repo.root, 'a.zip'));
    const b = await bundleGitFolder(mirror, second, 'docs', join(repo.root, 'b.zip'));
    expect(b.treeHash).toBe(a.treeHash);
    expect((await readFile(b.outFile)).equals(await readFile(a.outFile))).toBe(true);

    const third = await commitDocs({ 'docs/faq.md': '# FAQ, changed\n' });
    const c = await bundleGitFolder(mirror, third, 'docs', join(repo.root, 'c.zip'));
    expect(c.treeHash).not.toBe(a.treeHash);
    expect((await readFile(c.outFile)).equals(await readFile(a.outFile))).toBe(false);
  });

  it('gives the same zip as the working copy checked out at that commit', async () => {
    const sha = await commitDocs(under('docs', { ...SAMPLE_DOCS, '.gitbook.yaml': 'root: ./\n' }));
    const fromGit = await bundleGitFolder(mirror, sha, 'docs', join(repo.root, 'git.zip'));
    const fromCopy = await bundleWorkingFolder(join(repo.work, 'docs'), join(repo.root, 'copy.zip'));
    expect(fromCopy.files).toBe(fromGit.files);
    expect((await readFile(fromCopy.outFile)).equals(await readFile(fromGit.outFile))).toBe(true);
  });

  it('refuses a folder past maxBytes or maxFiles, and leaves no file behind', async () => {
    const sha = await commitDocs(under('docs', { 'README.md': '# Start\n', 'big.bin': randomBytes(50_000) }));
    await expect(bundleGitFolder(mirror, sha, 'docs', out, { maxBytes: 40_000 })).rejects.toMatchObject({
      name: 'ContentError',
      code: 'ARCHIVE_TOO_LARGE',
    });
    await expect(bundleGitFolder(mirror, sha, 'docs', out, { maxFiles: 1 })).rejects.toMatchObject({
      code: 'ARCHIVE_TOO_MANY_ENTRIES',
    });
    await expect(access(out)).rejects.toThrow();
  });

  it('refuses a folder missing at the commit, and a bad .gitbook.yaml naming the key', async () => {
    const sha = await commitDocs({
      'docs/.gitbook.yaml': 'structure:\n  readme: intro.txt\n',
      'docs/intro.txt': 'x',
    });
    await expect(bundleGitFolder(mirror, sha, 'nope', out)).rejects.toMatchObject({
      code: 'CONTENT_INVALID',
    });
    await expect(bundleGitFolder(mirror, sha, 'docs', out)).rejects.toThrow(/structure\.readme/);
  });
});
