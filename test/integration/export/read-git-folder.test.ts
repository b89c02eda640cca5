import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mappingSchema } from '../../../src/config/mapping-schema.js';
import { readGitFolder } from '../../../src/export/read-git-folder.js';
import { createGitFixture, type GitFixture } from '../git/git-fixture.js';

let repo: GitFixture;

beforeEach(async () => {
  repo = await createGitFixture();
});

afterEach(async () => {
  await repo.cleanup();
});

const mapping = (dir: string) =>
  mappingSchema.parse({
    name: 'docs',
    space: 'space-1',
    direction: 'space-to-git',
    git: { repo: repo.remote, branch: 'main', dir },
  });

describe('readGitFolder', () => {
  it('lists only the docs root .gitbook.yaml names, so no file outside it can fail an export', async () => {
    await repo.write({
      '.gitbook.yaml': 'root: ./docs/\nstructure:\n  summary: toc.md\n',
      'docs/README.md': '# Welcome\n',
      'docs/toc.md': '# Contents\n\n* [Welcome](README.md)\n',
      'src/main.c': 'int main() { return 0; }\n',
    });
    // A name that is not UTF-8 (Latin-1 `café`): outside the root, not even listed.
    await mkdir(join(repo.work, 'other'));
    await writeFile(Buffer.concat([Buffer.from(join(repo.work, 'other', 'caf')), Buffer.from([0xe9])]), 'x');
    const sha = repo.commit('a monorepo mapped at its root');
    repo.push();
    const mirror = await repo.fetchedMirror();

    const folder = await readGitFolder(mirror, sha, mapping(''), new AbortController().signal);
    expect(folder.contentDir).toBe('docs');
    expect(folder.listing.map((entry) => entry.path)).toEqual(['README.md', 'toc.md']);
    expect(folder.summary?.toString()).toBe('# Contents\n\n* [Welcome](README.md)\n');
    expect(folder.plan.entries.map((entry) => entry.name)).toEqual(['README.md', 'SUMMARY.md']);
  });

  it('takes a docs root that does not exist yet, or a mapped folder that does not, for an empty one', async () => {
    await repo.write({ 'docs/.gitbook.yaml': 'root: ./content/\n', 'docs/notes.md': '# Notes\n' });
    const sha = repo.commit('no content yet');
    repo.push();
    const mirror = await repo.fetchedMirror();
    const signal = new AbortController().signal;

    const missingRoot = await readGitFolder(mirror, sha, mapping('docs'), signal);
    expect(missingRoot).toMatchObject({ contentDir: 'docs/content', listing: [], summary: undefined });
    const missingDir = await readGitFolder(mirror, sha, mapping('guides'), signal);
    expect(missingDir).toMatchObject({ contentDir: 'guides', listing: [], summary: undefined });
  });
});
