// The broken links of an imported commit placed on their lines, the files read from the mapping's
// mirror: 50 files with broken links are read by one git process, not two for each file (which was
// half the time of a run on a real repository). A `git` first on the mirror's PATH logs each run
// and hands it to the real git, so the count is what git was really asked.
import { execFileSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BrokenLink } from '../../../src/links/broken-link.js';
import { commitFiles, locateBrokenLinks } from '../../../src/links/locate-broken-links.js';
import { createGitFixture, type GitFixture } from '../git/git-fixture.js';

const FILES = 50;

let fixture: GitFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

/** A PATH whose `git` logs its arguments into the returned log file, then runs the real git. */
async function loggingGitPath(root: string): Promise<{ path: string; log: string }> {
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const log = join(root, 'git-calls.log');
  await writeFile(log, '');
  await writeFile(join(root, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`);
  await chmod(join(root, 'git'), 0o755);
  return { path: `${root}:${process.env.PATH ?? '/usr/bin:/bin'}`, log };
}

async function gitCalls(log: string): Promise<string[]> {
  return (await readFile(log, 'utf8')).split('\n').filter((line) => line !== '');
}

/** Page `i`'s file: its broken link on line `i % 7 + 3`, column 5, among links that work. */
function page(i: number): string {
  const lines = [`# Page ${i}`, '', ...Array.from({ length: i % 7 }, (_, n) => `See [ok](page-${n}.md).`)];
  return [...lines, `One [gone](gone-${i}.md) link.`, '', '[home](index.md)', ''].join('\n');
}

function link(i: number, sourcePath: string): BrokenLink {
  return { pageId: `p${i}`, pageTitle: `Page ${i}`, target: `gone-${i}.md`, sourcePath };
}

describe('locateBrokenLinks in a commit', () => {
  it('reads 50 files with broken links with one git process, each link on its line', async () => {
    fixture = await createGitFixture();
    const files = Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`docs/page-${i}.md`, page(i)]));
    const sha = await fixture.publish({ ...files, 'docs/sub/inner.md': '# Inner\n' }, 'Pages');
    const shim = await loggingGitPath(fixture.root);
    const mirror = await fixture.fetchedMirror({ env: { ...process.env, PATH: shim.path } });
    const broken = [
      ...Array.from({ length: FILES }, (_, i) => link(i, `page-${i}.md`)),
      // No file there, and a folder: a file and no line, as before.
      link(FILES, 'removed.md'),
      link(FILES + 1, 'sub'),
    ];
    const before = (await gitCalls(shim.log)).length;

    const placed = await locateBrokenLinks(broken, commitFiles(mirror, sha, 'docs'));

    const calls = (await gitCalls(shim.log)).slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toContain('cat-file --batch');
    expect(placed).toEqual([
      ...Array.from({ length: FILES }, (_, i) => ({
        ...link(i, `page-${i}.md`),
        file: `docs/page-${i}.md`,
        line: (i % 7) + 3,
        column: 5,
      })),
      { ...link(FILES, 'removed.md'), file: 'docs/removed.md' },
      { ...link(FILES + 1, 'sub'), file: 'docs/sub' },
    ]);
  });

  it(".gitbook.yaml's root and readme: each link in the file git has it in, at its line", async () => {
    fixture = await createGitFixture();
    const sha = await fixture.publish(
      {
        'docs/.gitbook.yaml': 'root: ./content/\nstructure:\n  readme: start.md\n',
        'docs/README.md': '# The git host\n\n[gone](gone-0.md)\n',
        'docs/content/start.md': page(0),
        'docs/content/guides/page-1.md': page(1),
      },
      'Pages under a root',
    );
    const mirror = await fixture.fetchedMirror();
    // The service names the pages by their paths in the bundle: from the root, the readme README.md.
    const broken = [link(0, 'README.md'), link(1, 'guides/page-1.md')];

    const placed = await locateBrokenLinks(broken, commitFiles(mirror, sha, 'docs'));

    expect(placed).toEqual([
      { ...link(0, 'README.md'), file: 'docs/content/start.md', line: 3, column: 5 },
      { ...link(1, 'guides/page-1.md'), file: 'docs/content/guides/page-1.md', line: 4, column: 5 },
    ]);
  });

  it('places nothing when .gitbook.yaml cannot be read: every file would be a guess', async () => {
    fixture = await createGitFixture();
    const sha = await fixture.publish(
      { 'docs/.gitbook.yaml': 'root: [not, a, path]\n', 'docs/page-0.md': page(0) },
      'A broken layout',
    );
    const mirror = await fixture.fetchedMirror();

    const placed = await locateBrokenLinks([link(0, 'page-0.md')], commitFiles(mirror, sha, 'docs'));

    expect(placed).toEqual([link(0, 'page-0.md')]);
  });

  it('runs no git for links on no file, and fails on a commit the mirror does not have', async () => {
    fixture = await createGitFixture();
    await fixture.publish({ 'docs/index.md': '# Home\n' }, 'Home');
    const shim = await loggingGitPath(fixture.root);
    const mirror = await fixture.fetchedMirror({ env: { ...process.env, PATH: shim.path } });
    const before = (await gitCalls(shim.log)).length;
    const madeInService: BrokenLink = { pageId: 'p', pageTitle: 'P', target: 'gone.md' };
    const unknown = 'f'.repeat(40);

    await expect(locateBrokenLinks([madeInService], commitFiles(mirror, unknown, 'docs'))).resolves.toEqual([
      madeInService,
    ]);
    expect(await gitCalls(shim.log)).toHaveLength(before);
    await expect(
      locateBrokenLinks([link(1, 'index.md')], commitFiles(mirror, unknown, 'docs')),
    ).rejects.toMatchObject({ code: 'GIT_NOT_FOUND' });
  });
});
