import { randomBytes } from 'node:crypto';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { readZip } from '../../../src/content/read-zip.js';
import { ZipFileWriter } from '../../../src/content/zip-file-writer.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docsync-zip-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, entries: readonly (readonly [string, Buffer])[]): Promise<Buffer> {
  const writer = new ZipFileWriter(join(dir, name));
  for (const [path, data] of entries) await writer.add(path, data);
  const size = await writer.finish();
  const zip = await readFile(join(dir, name));
  expect(zip.length).toBe(size);
  return zip;
}

/** Compression method and mode of each entry, as a zip reader sees them. */
async function describeEntries(zip: Buffer): Promise<Record<string, { method: number; mode: number }>> {
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const out: Record<string, { method: number; mode: number }> = {};
  for await (const entry of file.eachEntry()) {
    out[entry.fileName] = { method: entry.compressionMethod, mode: entry.externalFileAttributes >>> 16 };
  }
  file.close();
  return out;
}

describe('ZipFileWriter', () => {
  it('writes a zip that reads back with the same names and bytes', async () => {
    const text = Buffer.from('# Page\n\nSome words about docs. '.repeat(500));
    const noise = randomBytes(100_000);
    const entries = [
      ['README.md', text],
      ['empty.txt', Buffer.alloc(0)],
      ['guides/ünïcode.md', Buffer.from('# Ü\n')],
      ['assets/noise.bin', noise],
      ['assets/large.md', Buffer.concat([text, text, text, text, text, text, text, text])],
    ] as const;
    const zip = await write('a.zip', entries);
    const read = await readZip(zip);
    expect([...read.keys()]).toEqual(entries.map(([path]) => path));
    for (const [path, data] of entries) expect(read.get(path)?.equals(data)).toBe(true);

    const kinds = await describeEntries(zip);
    expect(kinds['README.md']).toEqual({ method: 8, mode: 0o100644 });
    expect(kinds['assets/large.md']?.method).toBe(8);
    // Data that deflate cannot shrink is stored as it is.
    expect(kinds['assets/noise.bin']?.method).toBe(0);
    expect(kinds['empty.txt']?.method).toBe(0);
  });

  it('gives the same bytes for the same entries', async () => {
    const entries = [
      ['a.md', Buffer.from('# A\n')],
      ['b.bin', randomBytes(70_000)],
    ] as const;
    expect((await write('one.zip', entries)).equals(await write('two.zip', entries))).toBe(true);
  });

  it('removes the file when the bundle is abandoned', async () => {
    const out = join(dir, 'abandoned.zip');
    const writer = new ZipFileWriter(out);
    await writer.add('a.md', Buffer.from('# A\n'));
    await writer.abort();
    await writer.abort();
    await expect(access(out)).rejects.toThrow();
  });

  it('fails with a ContentError when the file cannot be written', async () => {
    const writer = new ZipFileWriter(join(dir, 'missing-folder', 'x.zip'));
    const failure = await (async () => {
      for (let i = 0; i < 100; i += 1) await writer.add(`f${i}.md`, Buffer.from('# F\n'));
      await writer.finish();
    })().catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'ContentError', code: 'ARCHIVE_INVALID' });
    await writer.abort();
  });
});
