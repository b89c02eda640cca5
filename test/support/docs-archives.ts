// Docs folders and archives for import tests: a sample folder as a docs team keeps it (README,
// SUMMARY with nesting, pages linking each other and an image), zipped with docsync's own writer;
// and hand-made zips with what that writer refuses to produce (names leaving the folder, headers
// that lie about sizes), to play a hostile uploader.
import { crc32, deflateRawSync } from 'node:zlib';
import { writeZip } from './write-zip.js';

/** A 1x1 transparent PNG. */
export const LOGO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export type DocsFolder = Readonly<Record<string, string | Buffer>>;

/**
 * Welcome (README), Guides > Installing, Configure, then FAQ. The summary retitles `install.md`
 * ("Installing", its heading says "Install"); two pages show the logo.
 */
export const SAMPLE_DOCS: DocsFolder = {
  'README.md':
    '# Welcome\n\nStart with [the install guide](guides/install.md).\n\n![Logo](images/logo.png)\n',
  'SUMMARY.md': [
    '# Summary',
    '',
    '* [Welcome](README.md)',
    '* [Guides](guides/README.md)',
    '  * [Installing](guides/install.md)',
    '  * [Configure](guides/configure.md)',
    '* [FAQ](faq.md)',
    '',
  ].join('\n'),
  'guides/README.md': '# Guides\n\nRead [install](install.md), then [configure](configure.md).\n',
  'guides/install.md':
    '# Install\n\nRun the installer.\n\n![Logo](../images/logo.png)\n\nThen [configure](configure.md).\n',
  'guides/configure.md': '# Configure\n\nEdit `docsync.yaml`. Back to [the start](../README.md).\n',
  'faq.md': '# FAQ\n\nDo quokkas read docs? Only the good ones.\n',
  'images/logo.png': LOGO_PNG,
};

/** The folder as path to bytes. */
export function docsEntries(folder: DocsFolder): Map<string, Buffer> {
  return new Map(
    Object.entries(folder).map(([path, content]) => [
      path,
      typeof content === 'string' ? Buffer.from(content) : content,
    ]),
  );
}

/** The folder zipped as docsync's bundler zips it. */
export function docsZip(folder: DocsFolder = SAMPLE_DOCS): Promise<Buffer> {
  return writeZip(docsEntries(folder));
}

export interface RawZipEntry {
  /** Written as given: `../evil.md`, `/etc/passwd.md`. */
  name: string;
  data: Buffer;
  /** Deflate the data (method 8) rather than store it. */
  deflate?: boolean;
  /** The uncompressed size the headers claim; the true size by default. */
  declaredSize?: number;
}

/** A zip built byte by byte, with no check on names or sizes. */
export function rawZip(entries: readonly RawZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const stored = entry.deflate === true ? deflateRawSync(entry.data) : entry.data;
    const method = entry.deflate === true ? 8 : 0;
    const crc = crc32(entry.data);
    const size = entry.declaredSize ?? entry.data.length;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x0021, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, stored);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4); // made by: unix, 3.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x0021, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + stored.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
