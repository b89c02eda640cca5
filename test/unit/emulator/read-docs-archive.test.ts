import { describe, expect, it } from 'vitest';
import type { TreePage } from '../../../src/emulator/folder/content-tree.js';
import { ImportRefusedError } from '../../../src/emulator/folder/import-refused-error.js';
import { ARCHIVE_LIMITS, readArchive } from '../../../src/emulator/folder/read-archive.js';
import { readDocsArchive } from '../../../src/emulator/folder/read-docs-archive.js';
import { docsZip, rawZip } from '../../support/docs-archives.js';

const page = (text: string) => Buffer.from(text);

/** The archive with the Unix file type of every entry set to `mode` (a symbolic link, a device). */
function withFileMode(zip: Buffer, mode: number): Buffer {
  const patched = Buffer.from(zip);
  const central = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let at = patched.indexOf(central); at !== -1; at = patched.indexOf(central, at + 1)) {
    patched.writeUInt32LE((mode << 16) >>> 0, at + 38);
  }
  return patched;
}

async function refusal(archive: Buffer, limits = ARCHIVE_LIMITS): Promise<ImportRefusedError> {
  const error = await readArchive(archive, limits).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ImportRefusedError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

const outline = (pages: readonly TreePage[]): unknown[] =>
  pages.map((p) => {
    const name = p.kind === undefined || p.kind === 'document' ? p.path : `${p.kind}:${p.title}`;
    return p.kind !== 'link' && p.pages.length > 0 ? [name, outline(p.pages)] : name;
  });

describe('readArchive', () => {
  it('normalises backslashes and dot segments, and drops the folder wrapping everything', async () => {
    const files = await readArchive(
      rawZip([
        { name: 'repo-main/README.md', data: page('# Hi\n') },
        { name: 'repo-main\\guides\\a.md', data: page('# A\n'), deflate: true },
        { name: 'repo-main/./b/../c.md', data: page('# C\n') },
      ]),
    );
    expect([...files.keys()]).toEqual(['README.md', 'guides/a.md', 'c.md']);
    expect(files.get('guides/a.md')?.toString()).toBe('# A\n');
  });

  it.each([
    ['../evil.md', /archive entry \.\.\/evil\.md leaves the folder/],
    ['a\\..\\..\\evil.md', /leaves the folder/],
    ['/etc/passwd', /is absolute/],
    ['C:\\Windows\\win.ini', /is absolute/],
    ['.git/config', /holds a \.git folder/],
    ['docs/nul.md', /Windows device name/],
    ['docs/a:b.md', /character Windows refuses/],
    ['a\u0007b.md', /archive entry a\\x07b\.md holds a control character/],
  ])('refuses the entry name %j (PATH_UNSAFE)', async (name, message) => {
    const error = await refusal(rawZip([{ name, data: page('x') }]));
    expect(error.code).toBe('PATH_UNSAFE');
    expect(error.message).toMatch(message);
  });

  it('refuses two entries that normalise alike, and symbolic links', async () => {
    const twice = await refusal(
      rawZip([
        { name: 'guides/a.md', data: page('1') },
        { name: 'guides//./a.md', data: page('2') },
      ]),
    );
    expect(twice).toMatchObject({ code: 'ARCHIVE_INVALID', path: 'guides/a.md' });
    expect(twice.message).toMatch(/appears twice/);
    const link = await refusal(
      withFileMode(rawZip([{ name: 'passwd.md', data: page('/etc/passwd') }]), 0o120777),
    );
    expect(link.code).toBe('ARCHIVE_INVALID');
    expect(link.message).toMatch(/passwd\.md is a symbolic link/);
  });

  it('refuses archives past the limits: entries, bytes of a file, bytes in all, and lying sizes', async () => {
    const three = rawZip(
      ['a', 'b', 'c'].map((name) => ({ name: `${name}.bin`, data: Buffer.alloc(1000, 1) })),
    );
    const limits = { maxEntries: 3, maxEntryBytes: 1000, maxTotalBytes: 3000 };
    expect((await readArchive(three, limits)).size).toBe(3);
    expect(await refusal(three, { ...limits, maxEntries: 2 })).toMatchObject({
      code: 'ARCHIVE_TOO_MANY_ENTRIES',
    });
    expect(await refusal(three, { ...limits, maxEntryBytes: 999 })).toMatchObject({
      code: 'ARCHIVE_TOO_LARGE',
      path: 'a.bin',
    });
    expect(await refusal(three, { ...limits, maxTotalBytes: 2500 })).toMatchObject({
      code: 'ARCHIVE_TOO_LARGE',
      path: 'c.bin',
    });
    const bomb = rawZip([
      { name: 'bomb.bin', data: Buffer.alloc(8 * 1024 * 1024), deflate: true, declaredSize: 100 },
    ]);
    expect(await refusal(bomb)).toMatchObject({
      code: 'ARCHIVE_INVALID',
      message: 'archive entry bomb.bin is corrupt',
    });
    expect((await refusal(Buffer.from('not a zip'.repeat(10)))).message).toBe(
      'the archive is not a readable zip file',
    );
  });
});

describe('readDocsArchive', () => {
  it('reads .gitbook.yaml: the docs root, the readme and the summary it names', async () => {
    const archive = await docsZip({
      '.gitbook.yaml': 'root: ./docs/\nstructure:\n  readme: intro.md\n  summary: meta/TOC.md\n',
      'README.md': '# The git host page\n',
      'docs/intro.md': '# Intro\n',
      'docs/README.md': '# Not the readme here\n',
      'docs/meta/TOC.md': '* [Start](../intro.md)\n* [Guides](../guides/)\n',
      'docs/guides/intro.md': '# Guides\n',
      'docs/img/logo.png': Buffer.from([1, 2, 3]),
    });
    const { tree, skipped } = await readDocsArchive(archive, ARCHIVE_LIMITS);
    expect(outline(tree.pages)).toEqual(['intro.md', 'guides/intro.md']);
    expect(tree.pages.map((p) => [p.title, p.slug])).toEqual([
      ['Start', 'intro'],
      ['Guides', 'guides'],
    ]);
    expect(tree.files.map((file) => file.path)).toEqual(['img/logo.png']);
    // .gitbook.yaml, the README outside the root and the unlisted docs/README.md.
    expect(skipped).toBe(3);
  });

  it('leaves out tool files (a name starting with a dot, .gitbook/ excepted) and counts them', async () => {
    const { tree, skipped } = await readDocsArchive(
      await docsZip({
        'README.md': '# Hi\n',
        '.DS_Store': Buffer.from([0]),
        '.github/workflows/ci.yml': 'on: push\n',
        'guides/.gitkeep': '',
        '.gitbook/assets/logo.png': Buffer.from([1]),
      }),
      ARCHIVE_LIMITS,
    );
    expect(outline(tree.pages)).toEqual(['README.md']);
    expect(tree.files.map((file) => [file.path, file.contentType])).toEqual([
      ['.gitbook/assets/logo.png', 'image/png'],
    ]);
    expect(skipped).toBe(3);
  });

  it('refuses a .gitbook.yaml it cannot follow, naming the key', async () => {
    const refused = (yaml: string) =>
      readDocsArchive(configuredZip(yaml), ARCHIVE_LIMITS).then(
        () => undefined,
        (error: unknown) => error,
      );
    await expect(refused('structure:\n  readme: intro.txt\n')).resolves.toMatchObject({
      code: 'CONTENT_INVALID',
      message: '.gitbook.yaml structure.readme must name a .md file, not intro.txt',
    });
    await expect(refused('root: ../elsewhere\n')).resolves.toMatchObject({
      code: 'CONTENT_INVALID',
      message: expect.stringMatching(/^\.gitbook\.yaml root \.\.\/elsewhere leaves the folder/),
    });
  });
});

function configuredZip(yaml: string): Buffer {
  return rawZip([
    { name: '.gitbook.yaml', data: page(yaml) },
    { name: 'README.md', data: page('# Hi\n') },
  ]);
}
