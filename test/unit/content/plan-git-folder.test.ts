import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type GitTreeSource, planGitFolder } from '../../../src/content/bundle-git-folder.js';
import type { BlobData, TreeEntry } from '../../../src/git/git-mirror.js';

const SHA = 'a'.repeat(40);
const SUBMODULE = Symbol('submodule');

type Tree = Readonly<Record<string, string | typeof SUBMODULE>>;

/**
 * A commit's tree in memory, read as the mirror reads one (folders exist where files are, or where
 * `folders` says), counting the calls that start a git process.
 */
function treeSource(tree: Tree, folders: readonly string[] = []) {
  const calls = { openFolder: 0, treeHash: 0, readBlobs: 0, closed: 0, blobsRead: [] as string[] };
  const blobs = new Map<string, Buffer>();
  const entries: TreeEntry[] = Object.entries(tree)
    .map(([path, content]) => {
      if (content === SUBMODULE) return { path, mode: '160000', blob: 'c'.repeat(40), size: 0 };
      const data = Buffer.from(content);
      const blob = createHash('sha1').update(data).digest('hex');
      blobs.set(blob, data);
      return { path, mode: '100644', blob, size: data.length };
    })
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  const isFolder = (dir: string) =>
    dir === '.' || folders.includes(dir) || entries.some((entry) => entry.path.startsWith(`${dir}/`));
  const treeHash = (dir: string) => createHash('sha1').update(dir).digest('hex');
  const source: GitTreeSource = {
    async openFolder(sha, dir) {
      calls.openFolder += 1;
      expect(sha).toBe(SHA);
      if (!isFolder(dir)) return undefined;
      return {
        treeHash: treeHash(dir),
        entries: entries
          .filter((entry) => entry.path.startsWith(`${dir}/`))
          .map((entry) => ({ ...entry, path: entry.path.slice(dir.length + 1) })),
        async *readBlobs(ids) {
          calls.readBlobs += 1;
          for await (const blob of ids) {
            calls.blobsRead.push(blob);
            const data = blobs.get(blob);
            if (data === undefined) throw new Error(`no blob ${blob}`);
            yield { blob, data } satisfies BlobData;
          }
        },
        close() {
          calls.closed += 1;
        },
      };
    },
    async treeHash(sha, dir) {
      calls.treeHash += 1;
      expect(sha).toBe(SHA);
      return isFolder(dir) ? treeHash(dir) : undefined;
    },
  };
  return { source, calls };
}

describe('planGitFolder', () => {
  it('reads .gitbook.yaml and the summary through one stream of blobs, from one listing of the folder', async () => {
    const { source, calls } = treeSource({
      'docs/.gitbook.yaml': 'root: ./content/\nstructure:\n  summary: toc.md\n',
      'docs/notes.md': '# Outside the root\n',
      'docs/content/README.md': '# Welcome\n',
      'docs/content/toc.md': '# Table\n\n* [Welcome](README.md)\n* [Setup](setup.md)\n',
      'docs/content/setup.md': '# Setup\n',
      'docs/content/draft.md': '# Draft\n',
    });
    const { plan, root, layout } = await planGitFolder(source, SHA, 'docs');

    expect(root).toBe('docs/content');
    expect(layout).toEqual({ root: 'content', readme: 'README.md', summary: 'toc.md' });
    expect(plan.entries.map((entry) => [entry.name, entry.path])).toEqual([
      ['README.md', 'README.md'],
      ['SUMMARY.md', 'toc.md'],
      ['setup.md', 'setup.md'],
    ]);
    expect(plan.warnings.map((warning) => [warning.code, warning.file])).toEqual([
      ['PAGE_UNLISTED', 'draft.md'],
    ]);
    expect(calls).toMatchObject({ openFolder: 1, treeHash: 0, readBlobs: 1, closed: 1 });
    expect(calls.blobsRead).toHaveLength(2);
  });

  it('reads no blob when the folder has neither .gitbook.yaml nor a summary', async () => {
    const { source, calls } = treeSource({ 'docs/README.md': '# Welcome\n', 'docs/guide.md': '# Guide\n' });
    const { plan } = await planGitFolder(source, SHA, 'docs');
    expect(plan.entries.map((entry) => entry.name)).toEqual(['README.md', 'guide.md']);
    expect(calls).toMatchObject({ openFolder: 1, readBlobs: 0, closed: 1 });
  });

  it('takes a submodule named .gitbook.yaml for no layout at all', async () => {
    const { source, calls } = treeSource({
      'docs/.gitbook.yaml': SUBMODULE,
      'docs/README.md': '# Welcome\n',
    });
    const { plan, layout } = await planGitFolder(source, SHA, 'docs');
    expect(layout.root).toBe('.');
    expect(plan.entries.map((entry) => entry.name)).toEqual(['README.md']);
    expect(plan.skipped).toBe(1);
    expect(calls.readBlobs).toBe(0);
  });

  it('refuses a folder missing at the commit, naming it', async () => {
    const { source } = treeSource({ 'docs/README.md': '# Welcome\n' });
    await expect(planGitFolder(source, SHA, 'nope')).rejects.toMatchObject({
      name: 'ContentError',
      code: 'CONTENT_INVALID',
      path: 'nope',
      message: `folder nope does not exist at commit ${SHA}`,
    });
  });

  it('refuses a root that names no folder, and takes an empty one as a folder without files', async () => {
    const missing = treeSource({ 'docs/.gitbook.yaml': 'root: guides\n', 'docs/guides.md': '# Guides\n' });
    await expect(planGitFolder(missing.source, SHA, 'docs')).rejects.toMatchObject({
      code: 'CONTENT_INVALID',
      path: 'docs/guides',
      message: `root guides named in .gitbook.yaml is not a folder at commit ${SHA}`,
    });

    const empty = treeSource({ 'docs/.gitbook.yaml': 'root: guides\n', 'docs/notes.md': '# Notes\n' }, [
      'docs/guides',
    ]);
    const { plan, root } = await planGitFolder(empty.source, SHA, 'docs');
    expect(root).toBe('docs/guides');
    expect(plan.entries).toEqual([]);
  });
});
