// A bundle of more files than a classic zip counts (65,535): docsync writes zip64's end records, and
// the archive reads back whole, every entry with its bytes, as the service reads an import.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readZip } from '../../../src/content/read-zip.js';
import { ZipFileWriter } from '../../../src/content/zip-file-writer.js';
import { tempDir } from '../../support/test-context.js';

const ENTRIES = 70_000;

describe('a bundle of more than 65,535 files', () => {
  it('reads back with every entry', { timeout: 300_000 }, async () => {
    const file = join(await tempDir('zip64'), 'bundle.zip');
    const writer = new ZipFileWriter(file);
    for (let n = 0; n < ENTRIES; n += 1)
      await writer.add(`section-${Math.floor(n / 100)}/page-${n % 100}.md`, Buffer.from(`# Page ${n}\n`));
    await writer.finish();

    const entries = await readZip(await readFile(file));
    expect(entries.size).toBe(ENTRIES);
    expect(entries.get('section-0/page-0.md')?.toString()).toBe('# Page 0\n');
    expect(entries.get('section-699/page-99.md')?.toString()).toBe(`# Page ${ENTRIES - 1}\n`);
  });
});
