import { mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleWorkingFolder } from '../../../src/content/bundle-working-folder.js';
import { readZip } from '../../../src/content/read-zip.js';
import { SAMPLE_DOCS } from '../../support/docs-archives.js';

let root: string;
let folder: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'docsync-worktree-'));
  folder = join(root, 'docs');
  await writeFiles(SAMPLE_DOCS);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeFiles(files: Readonly<Record<string, string | Buffer>>): Promise<void> {
  for (const [path, data] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), data);
  }
}

let bundles = 0;
function nextZip(): string {
  bundles += 1;
  return join(root, `bundle-${bundles}.zip`);
}

/** Bundles the folder into a new zip: the result, and the zip's entries by path. */
async function bundleAndRead() {
  const result = await bundleWorkingFolder(folder, nextZip());
  return { result, entries: await readZip(await readFile(result.outFile)) };
}

describe('bundleWorkingFolder', () => {
  it('gives the same content hash for the same content, and another after a change', async () => {
    const first = await bundleWorkingFolder(folder, nextZip());
    expect(first.contentHash).toMatch(/^[0-9a-f]{64}$/);
    await utimes(join(folder, 'faq.md'), new Date(2001, 1, 1), new Date(2001, 1, 1));
    const again = await bundleWorkingFolder(folder, nextZip());
    expect(again.contentHash).toBe(first.contentHash);
    expect((await readFile(again.outFile)).equals(await readFile(first.outFile))).toBe(true);

    await writeFiles({ 'faq.md': '# FAQ\n\nA new answer.\n' });
    const changed = await bundleWorkingFolder(folder, nextZip());
    expect(changed.contentHash).not.toBe(first.contentHash);
  });

  it('leaves out .git and symbolic links, wherever they point', async () => {
    await writeFiles({ '.git/HEAD': 'ref: refs/heads/main\n', 'guides/.git': 'gitdir: elsewhere\n' });
    await writeFile(join(root, 'secret.md'), '# Outside\n');
    await symlink(join(root, 'secret.md'), join(folder, 'leak.md'));
    await symlink('faq.md', join(folder, 'alias.md'));
    await symlink(root, join(folder, 'up'));

    const { result, entries } = await bundleAndRead();
    expect(result.skipped).toBe(3);
    expect([...entries.keys()].sort()).toEqual(Object.keys(SAMPLE_DOCS).sort());
  });

  it('honours .gitbook.yaml, and refuses a root that leaves the folder through a link', async () => {
    await writeFiles({
      '.gitbook.yaml': 'root: site\nstructure:\n  readme: home.md\n',
      'site/home.md': '# Home\n',
      'site/more.md': '# More\n',
    });
    const { entries } = await bundleAndRead();
    expect([...entries.keys()]).toEqual(['README.md', 'more.md']);

    await rm(join(folder, 'site'), { recursive: true });
    await symlink(root, join(folder, 'site'));
    await expect(bundleWorkingFolder(folder, nextZip())).rejects.toMatchObject({ code: 'CONTENT_INVALID' });
  });

  it('refuses a folder past its limits', async () => {
    await expect(bundleWorkingFolder(folder, nextZip(), { maxFiles: 3 })).rejects.toMatchObject({
      code: 'ARCHIVE_TOO_MANY_ENTRIES',
    });
    await expect(bundleWorkingFolder(folder, nextZip(), { maxBytes: 100 })).rejects.toMatchObject({
      code: 'ARCHIVE_TOO_LARGE',
    });
  });

  it('leaves dotfiles out and does not walk dot folders, but for .gitbook', async () => {
    await writeFiles({
      '.gitignore': 'node_modules/\n',
      '.docsync/git/mirror/HEAD': 'ref: refs/heads/main\n',
      '.gitbook/assets/diagram.png': 'png',
    });
    const { result, entries } = await bundleAndRead();
    expect([...entries.keys()].sort()).toEqual(
      [...Object.keys(SAMPLE_DOCS), '.gitbook/assets/diagram.png'].sort(),
    );
    expect(result.leftOut.map((file) => [file.path, file.reason])).toEqual([['.gitignore', 'dotfile']]);
  });

  it('refuses a folder far over the file limit without listing all of it', async () => {
    await writeFiles(
      Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`many/${index}.png`, 'x'])),
    );
    await expect(bundleWorkingFolder(folder, nextZip(), { maxFiles: 2 })).rejects.toMatchObject({
      code: 'ARCHIVE_TOO_MANY_ENTRIES',
      message:
        'the docs root has more than 8 files, far over the limit of 2 per import: move files out of it',
    });
  });
});
