// Bundles a docs folder into a zip in memory, as tests build the archives they import: the bytes
// depend only on the entries (names sorted, one fixed timestamp and mode). docsync writes its own
// bundles with src/content/zip-file-writer.ts.
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ZipFile } from 'yazl';
import { ContentError } from '../../src/content/content-error.js';
import { safeRelativePath } from '../../src/content/safe-relative-path.js';

const FILE_MODE = 0o100644;

/** The zip of `entries` (path to content) in memory. Throws PATH_UNSAFE or CONTENT_INVALID first. */
export async function writeZip(entries: Iterable<readonly [string, Buffer]>): Promise<Buffer> {
  return buffer(writeZipStream(entries));
}

/**
 * The zip of `entries` as a stream, for bundles too large to hold twice in memory. Paths are
 * checked and sorted before the first byte: a bad path throws here, not halfway through the stream.
 */
export function writeZipStream(entries: Iterable<readonly [string, Buffer]>): Readable {
  const sorted = sortedEntries(entries);
  const zip = new ZipFile();
  // yazl writes DOS times from a Date's local fields, so the fixed time is built from local fields at
  // each call: the same bytes in every time zone (the UTC extra field is off for the same reason).
  const mtime = new Date(1980, 0, 1, 12, 0, 0);
  const output =
    zip.outputStream instanceof Readable ? zip.outputStream : new Readable().wrap(zip.outputStream);
  zip.on('error', (error: unknown) => {
    output.destroy(new ContentError('ARCHIVE_INVALID', 'could not write the zip', { cause: error }));
  });
  for (const [path, data] of sorted) {
    zip.addBuffer(data, path, {
      mtime,
      mode: FILE_MODE,
      forceDosTimestamp: true,
      compress: true,
    });
  }
  zip.end();
  return output;
}

function sortedEntries(entries: Iterable<readonly [string, Buffer]>): [string, Buffer][] {
  const byPath = new Map<string, Buffer>();
  for (const [raw, data] of entries) {
    const path = safeRelativePath(raw, { subject: 'zip entry', root: 'archive root' });
    if (byPath.has(path)) {
      throw new ContentError('CONTENT_INVALID', `zip entry ${path} is given twice`, { path });
    }
    byPath.set(path, data);
  }
  // Code-unit order, not localeCompare: the bundle must not depend on the machine's locale.
  return [...byPath].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
