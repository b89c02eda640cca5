// Reads an import archive (a zip of a docs folder) into its files, treating it as hostile: every name
// is checked before it becomes a key, every entry's kind and declared size before it is read, and
// inflating stops past the declared size, so a zip bomb or a header lying about sizes stops there.
// yauzl reads the central directory; node:zlib inflates.
import { inflateRawSync } from 'node:zlib';
import type { Entry, ZipFile } from 'yauzl';
import yauzl from 'yauzl';
import { folderPath, shownPath } from './folder-path.js';
import { ImportRefusedError } from './import-refused-error.js';

export interface ArchiveLimits {
  /** Inflated bytes of all entries together. */
  maxTotalBytes: number;
  /** Inflated bytes of one entry. */
  maxEntryBytes: number;
  /** Entries of the central directory, folders included. */
  maxEntries: number;
}

const MIB = 1024 * 1024;

/** The service's limits on one import: 50 MiB inflated, 20 MiB a file (docsync checks the same). */
export const ARCHIVE_LIMITS: Readonly<ArchiveLimits> = Object.freeze({
  maxTotalBytes: 50 * MIB,
  maxEntryBytes: 20 * MIB,
  // Only a bound on an archive gone wrong: the bytes above bound what one import holds.
  maxEntries: 10_000_000,
});

// Unix file types, kept by zip tools in the high 16 bits of the external attributes.
const FILE_TYPE_MASK = 0o170000;
const REGULAR_FILE = 0o100000;
const DIRECTORY = 0o040000;
const SYMBOLIC_LINK = 0o120000;
const LOCAL_HEADER_SIGNATURE = 0x04034b50;
const LOCAL_HEADER_BYTES = 30;
const STORED = 0;
// Finder's resource-fork copies: never docs, and they would hide a wrapping folder.
const MACOS_FORKS = /^__MACOSX(?:\/|$)/;

/**
 * The files of the archive by normalised path (folders are implied by paths). When every file sits in
 * one top-level folder (`repo-main/README.md`, as git hosts' archives have it), that folder is
 * dropped from the paths. Refuses with an ImportRefusedError: not a zip; a name folderPath refuses;
 * two entries with the same normalised name; symbolic links and other entries that are not files or
 * folders; encrypted entries and unknown compression; archives past `limits`.
 */
export async function readArchive(
  archive: Buffer,
  limits: Readonly<ArchiveLimits> = ARCHIVE_LIMITS,
): Promise<Map<string, Buffer>> {
  const zip = await openArchive(archive);
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new ImportRefusedError(
        'ARCHIVE_TOO_MANY_ENTRIES',
        `the archive has ${zip.entryCount} entries, more than the limit of ${limits.maxEntries}: import a smaller folder`,
      );
    }
    const files = new Map<string, Buffer>();
    const names = new Set<string>();
    let totalBytes = 0;
    for await (const entry of zip.eachEntry()) {
      const raw = yauzl.getFileNameLowLevel(
        entry.generalPurposeBitFlag,
        entry.fileNameRaw,
        entry.extraFields,
        true,
      );
      const checked = folderPath(raw);
      if (!checked.ok) {
        throw new ImportRefusedError('PATH_UNSAFE', `archive entry ${shownPath(raw)} ${checked.reason}`, {
          path: raw,
        });
      }
      const path = checked.path;
      if (names.has(path)) {
        throw new ImportRefusedError(
          'ARCHIVE_INVALID',
          `archive entry ${path} appears twice (names are compared normalised): keep one`,
          { path },
        );
      }
      names.add(path);
      const isFolder = raw.endsWith('/') || raw.endsWith('\\');
      checkKind(entry, path, isFolder);
      if (isFolder || MACOS_FORKS.test(path)) continue;

      const budget = Math.min(limits.maxEntryBytes, limits.maxTotalBytes - totalBytes);
      // Inflating stops past the declared size: what it declares is what is counted.
      if (entry.uncompressedSize > budget)
        throw sizeRefusal(path, entry.uncompressedSize, totalBytes, limits);
      const data = inflate(archive, entry, path);
      totalBytes += data.length;
      files.set(path, data);
    }
    return withoutWrappingFolder(files);
  } catch (error) {
    if (error instanceof ImportRefusedError) throw error;
    throw new ImportRefusedError('ARCHIVE_INVALID', 'the archive is not a readable zip file', {
      cause: error,
    });
  } finally {
    zip.close();
  }
}

async function openArchive(archive: Buffer): Promise<ZipFile> {
  try {
    // Names are decoded by readArchive (decodeStrings: false), so a hostile one is refused by name;
    // entry data is inflated by readArchive too, so yauzl's stream options do not apply.
    return await yauzl.fromBufferPromise(archive, { lazyEntries: true, decodeStrings: false });
  } catch (error) {
    throw new ImportRefusedError('ARCHIVE_INVALID', 'the archive is not a readable zip file', {
      cause: error,
    });
  }
}

function checkKind(entry: Entry, path: string, isFolder: boolean): void {
  const type = (entry.externalFileAttributes >>> 16) & FILE_TYPE_MASK;
  const refuse = (what: string) =>
    new ImportRefusedError('ARCHIVE_INVALID', `archive entry ${path} ${what}`, { path });
  if (type === SYMBOLIC_LINK) throw refuse('is a symbolic link: put the file itself in the archive');
  if (type !== 0 && type !== REGULAR_FILE && type !== DIRECTORY) throw refuse('is not a regular file');
  if (isFolder) return;
  if (entry.isEncrypted()) throw refuse('is encrypted: import an archive without a password');
  if (!entry.canDecodeFileData()) {
    throw refuse(`uses compression method ${entry.compressionMethod}: use deflate or none`);
  }
}

/**
 * The entry's bytes, inflated in one call from the archive in memory: a stream per entry costs a
 * third of a millisecond, most of an import of thousands of small pages. Inflating stops one byte
 * past the declared size, which readArchive checked against the budget: a bomb never gets further,
 * and any size other than the declared one is a corrupt entry.
 */
function inflate(archive: Buffer, entry: Entry, path: string): Buffer {
  const corrupt = (cause?: unknown) =>
    new ImportRefusedError('ARCHIVE_INVALID', `archive entry ${path} is corrupt`, {
      path,
      ...(cause === undefined ? {} : { cause }),
    });
  const header = entry.relativeOffsetOfLocalHeader;
  if (
    header + LOCAL_HEADER_BYTES > archive.length ||
    archive.readUInt32LE(header) !== LOCAL_HEADER_SIGNATURE
  ) {
    throw corrupt();
  }
  const start =
    header + LOCAL_HEADER_BYTES + archive.readUInt16LE(header + 26) + archive.readUInt16LE(header + 28);
  const end = start + entry.compressedSize;
  if (end > archive.length) throw corrupt();
  const stored = archive.subarray(start, end);
  let data: Buffer;
  if (entry.compressionMethod === STORED) {
    data = Buffer.from(stored);
  } else {
    try {
      // The declared size is within the budget (readArchive checked): more is a lie, and stops here.
      data = inflateRawSync(stored, { maxOutputLength: entry.uncompressedSize + 1 });
    } catch (error) {
      throw corrupt(error);
    }
  }
  if (data.length !== entry.uncompressedSize) throw corrupt();
  return data;
}

function sizeRefusal(
  path: string,
  size: number,
  before: number,
  limits: Readonly<ArchiveLimits>,
): ImportRefusedError {
  const message =
    size > limits.maxEntryBytes
      ? `archive entry ${path} inflates to more than the limit of ${limits.maxEntryBytes} bytes a file`
      : `archive entry ${path} takes the archive past the limit of ${limits.maxTotalBytes} inflated bytes (${before + size} or more)`;
  return new ImportRefusedError('ARCHIVE_TOO_LARGE', message, { path });
}

/** The files without the one folder they all sit in, when they do. */
function withoutWrappingFolder(files: Map<string, Buffer>): Map<string, Buffer> {
  let top: string | undefined;
  for (const path of files.keys()) {
    const slash = path.indexOf('/');
    if (slash === -1) return files;
    const folder = path.slice(0, slash);
    if (top !== undefined && folder !== top) return files;
    top = folder;
  }
  if (top === undefined) return files;
  const cut = top.length + 1;
  return new Map([...files].map(([path, data]) => [path.slice(cut), data]));
}
