import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { ContentError } from '../../../src/content/content-error.js';
import { readZip, ZIP_LIMITS } from '../../../src/content/read-zip.js';
import { writeZip, writeZipStream } from '../../support/write-zip.js';

const MIB = 1024 * 1024;

/** A zip built with yazl directly, for archives writeZip would never produce. */
async function handBuiltZip(build: (zip: ZipFile) => void): Promise<Buffer> {
  const zip = new ZipFile();
  build(zip);
  zip.end();
  return buffer(Readable.from(zip.outputStream));
}

/** Renames an entry in place (local header and central directory): yazl refuses hostile names. */
function renamed(zip: Buffer, from: string, to: string): Buffer {
  const fromBytes = Buffer.from(from, 'utf8');
  const toBytes = Buffer.from(to, 'utf8');
  expect(toBytes.length).toBe(fromBytes.length);
  const patched = Buffer.from(zip);
  let at = patched.indexOf(fromBytes);
  let count = 0;
  while (at !== -1) {
    toBytes.copy(patched, at);
    count += 1;
    at = patched.indexOf(fromBytes, at + 1);
  }
  expect(count).toBe(2);
  return patched;
}

/** Sets the uncompressed size the central directory declares for every entry. */
function withDeclaredSize(zip: Buffer, size: number): Buffer {
  const patched = Buffer.from(zip);
  const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let at = patched.indexOf(signature); at !== -1; at = patched.indexOf(signature, at + 1)) {
    patched.writeUInt32LE(size, at + 24);
  }
  return patched;
}

async function refusal(promise: Promise<unknown>): Promise<ContentError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ContentError)) throw new Error(`expected a ContentError, got ${String(error)}`);
  return error;
}

const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));

describe('writeZip and readZip', () => {
  it('read back every entry of a written zip, byte for byte', async () => {
    const entries = new Map([
      ['README.md', Buffer.from('# Welcome\n')],
      ['guides/install.md', Buffer.from('# Install\n\nRun it.\n')],
      ['Über uns/日本語 ページ.md', Buffer.from('# こんにちは\n')],
      ['.gitbook/assets/logo.png', binary],
      ['empty.txt', Buffer.alloc(0)],
    ]);
    expect(await readZip(await writeZip(entries))).toEqual(entries);
  });

  it('write the same bytes whatever the entry order and the time zone', async () => {
    const entries: [string, Buffer][] = [
      ['b.md', Buffer.from('b')],
      ['a/c.png', binary],
      ['a.md', Buffer.from('a')],
    ];
    const previousTz = process.env.TZ;
    try {
      process.env.TZ = 'America/Los_Angeles';
      const west = await writeZip(entries);
      process.env.TZ = 'Asia/Tokyo';
      const east = await writeZip([...entries].reverse());
      expect(east.equals(west)).toBe(true);
    } finally {
      if (previousTz === undefined) delete process.env.TZ;
      else process.env.TZ = previousTz;
    }
  });

  it('stream the same bytes as they write in memory', async () => {
    const entries: [string, Buffer][] = [
      ['a.md', Buffer.from('a')],
      ['big.bin', Buffer.alloc(3 * MIB, 7)],
    ];
    expect((await buffer(writeZipStream(entries))).equals(await writeZip(entries))).toBe(true);
  });

  it('normalise entry names when writing, and refuse unsafe or clashing ones', async () => {
    const zip = await writeZip([['guides\\./install.md', Buffer.from('x')]]);
    expect([...(await readZip(zip, {})).keys()]).toEqual(['install.md']);
    await expect(writeZip([['../x.md', Buffer.from('x')]])).rejects.toMatchObject({ code: 'PATH_UNSAFE' });
    await expect(
      writeZip([
        ['a/b.md', Buffer.from('1')],
        ['a//b.md', Buffer.from('2')],
      ]),
    ).rejects.toMatchObject({ code: 'CONTENT_INVALID', message: 'zip entry a/b.md is given twice' });
  });
});

describe('readZip', () => {
  it('strips the one folder that wraps everything, as in a GitHub archive', async () => {
    const zip = await handBuiltZip((z) => {
      z.addEmptyDirectory('docs-main/');
      z.addEmptyDirectory('docs-main/guides/');
      z.addBuffer(Buffer.from('# Home'), 'docs-main/README.md');
      z.addBuffer(Buffer.from('# Install'), 'docs-main/guides/install.md');
    });
    expect([...(await readZip(zip)).keys()]).toEqual(['README.md', 'guides/install.md']);
  });

  it('keeps top-level folders when files sit beside them or there are several', async () => {
    const beside = await writeZip([
      ['README.md', Buffer.from('a')],
      ['guides/install.md', Buffer.from('b')],
    ]);
    const several = await writeZip([
      ['api/a.md', Buffer.from('a')],
      ['guides/b.md', Buffer.from('b')],
    ]);
    expect([...(await readZip(beside)).keys()]).toEqual(['README.md', 'guides/install.md']);
    expect([...(await readZip(several)).keys()]).toEqual(['api/a.md', 'guides/b.md']);
  });

  it('skips macOS resource forks, which would otherwise hide the wrapping folder', async () => {
    const zip = await handBuiltZip((z) => {
      z.addBuffer(Buffer.from('# Home'), 'docs/README.md');
      z.addBuffer(Buffer.from('junk'), '__MACOSX/docs/._README.md');
    });
    expect([...(await readZip(zip)).keys()]).toEqual(['README.md']);
  });

  it.each([
    ['xx/xx/etc/passwd', '../../etc/passwd', 'archive entry ../../etc/passwd leaves the archive root'],
    ['docs/xx/xx/xx/x.md', 'docs/../../../x.md', 'archive entry docs/../../../x.md leaves the archive root'],
    ['xetc/passwd', '/etc/passwd', 'archive entry /etc/passwd is absolute'],
    ['xxxWindows/win.ini', 'C:/Windows/win.ini', 'archive entry C:/Windows/win.ini is absolute'],
    ['xxxxxxx.md', '..\\..\\x.md', 'archive entry ..\\..\\x.md leaves the archive root'],
    ['xgit/config', '.git/config', 'archive entry .git/config contains a .git folder'],
    ['aXb.md', 'a\u0007b.md', 'archive entry a\\x07b.md contains a control character'],
  ])('refuses the entry name %#: %j', async (placeholder, hostile, message) => {
    const zip = renamed(
      await handBuiltZip((z) => z.addBuffer(Buffer.from('owned'), placeholder)),
      placeholder,
      hostile,
    );
    const error = await refusal(readZip(zip));
    expect(error.code).toBe('PATH_UNSAFE');
    expect(error.message).toBe(message);
  });

  it('refuses a zip bomb by its inflated size, before reading past the limit', async () => {
    const zip = await handBuiltZip((z) =>
      z.addBuffer(Buffer.alloc(ZIP_LIMITS.maxEntryBytes + MIB), 'zeros.bin'),
    );
    expect(zip.length).toBeLessThan(100 * 1024);
    const error = await refusal(readZip(zip));
    expect(error.code).toBe('ARCHIVE_TOO_LARGE');
    expect(error.message).toMatch(
      /^archive entry zeros.bin inflates to more than the limit of 20971520 bytes/,
    );
  });

  it('refuses an entry whose declared size understates what it inflates to', async () => {
    const honest = await handBuiltZip((z) => z.addBuffer(Buffer.alloc(8 * MIB), 'zeros.bin'));
    const error = await refusal(readZip(withDeclaredSize(honest, 100), { maxEntryBytes: MIB }));
    expect(error.code).toBe('ARCHIVE_INVALID');
    expect(error.message).toBe('archive entry zeros.bin is corrupt');
  });

  it('counts bytes across entries against the total limit', async () => {
    const chunk = Buffer.alloc(400 * 1024, 1);
    const zip = await writeZip([
      ['a.bin', chunk],
      ['b.bin', chunk],
      ['c.bin', chunk],
    ]);
    expect((await readZip(zip, { maxTotalBytes: 3 * chunk.length })).size).toBe(3);
    const error = await refusal(readZip(zip, { maxTotalBytes: MIB }));
    expect(error.code).toBe('ARCHIVE_TOO_LARGE');
    expect(error.path).toBe('c.bin');
  });

  it('refuses more entries than the limit, folders included', async () => {
    const zip = await handBuiltZip((z) => {
      z.addEmptyDirectory('notes/');
      for (let i = 0; i < 10; i += 1) z.addBuffer(Buffer.from(`${i}`), `notes/${i}.md`);
    });
    expect((await readZip(zip, { maxEntries: 11 })).size).toBe(10);
    const error = await refusal(readZip(zip, { maxEntries: 10 }));
    expect(error.code).toBe('ARCHIVE_TOO_MANY_ENTRIES');
    expect(error.message).toBe('archive has 11 entries, more than the limit of 10');
  });

  it('refuses garbage and a truncated archive', async () => {
    const zip = await writeZip([['a.md', Buffer.from('# A\n'.repeat(1000))]]);
    for (const archive of [Buffer.from('not a zip at all'), zip.subarray(0, zip.length - 10)]) {
      const error = await refusal(readZip(archive));
      expect(error.code).toBe('ARCHIVE_INVALID');
      expect(error.message).toBe('archive is not a readable zip file');
    }
  });

  it('refuses an entry whose compressed data is corrupt', async () => {
    const zip = await writeZip([['a.md', Buffer.from('# A\n'.repeat(1000))]]);
    const corrupt = Buffer.from(zip);
    corrupt[30 + 'a.md'.length] = 0xff; // the first deflate block header: a reserved block type
    const error = await refusal(readZip(corrupt));
    expect(error.code).toBe('ARCHIVE_INVALID');
    expect(error.message).toBe('archive entry a.md is corrupt');
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('refuses two entries with the same normalised name', async () => {
    const zip = await handBuiltZip((z) => {
      z.addBuffer(Buffer.from('one'), 'guides/a.md');
      z.addBuffer(Buffer.from('two'), 'guides/./a.md');
    });
    const error = await refusal(readZip(zip));
    expect(error.code).toBe('ARCHIVE_INVALID');
    expect(error.message).toBe('archive entry guides/a.md appears twice');
  });

  it('refuses a symbolic link entry', async () => {
    const zip = await handBuiltZip((z) => {
      z.addBuffer(Buffer.from('# Home'), 'README.md');
      z.addBuffer(Buffer.from('/etc/passwd'), 'passwd.md', { mode: 0o120777 });
    });
    const error = await refusal(readZip(zip));
    expect(error.code).toBe('ARCHIVE_INVALID');
    expect(error.message).toBe('archive entry passwd.md is a symbolic link');
  });
});
