// Reads a zip of a docs folder (an upload to the emulator, a GitHub archive) into path to content,
// treating the archive as hostile: names, sizes and entry kinds are checked before anything is kept.
import type { Entry, ZipFile } from 'yauzl';
import yauzl from 'yauzl';
import { SERVICE_IMPORT_LIMITS } from '../api/schemas/service-import-limits.js';
import { ContentError } from './content-error.js';
import { type PathContext, safeRelativePath } from './safe-relative-path.js';

export interface ZipLimits {
  /** Inflated bytes of all entries together. */
  maxTotalBytes: number;
  /** Inflated bytes of one entry. */
  maxEntryBytes: number;
  /** Entries in the central directory, folders included. */
  maxEntries: number;
}

/** The service's limits (shared with docsync's check before bundling), in the archive's terms. */
export const ZIP_LIMITS: Readonly<ZipLimits> = Object.freeze({
  maxTotalBytes: SERVICE_IMPORT_LIMITS.maxBytes,
  maxEntryBytes: SERVICE_IMPORT_LIMITS.maxFileBytes,
  maxEntries: SERVICE_IMPORT_LIMITS.maxFiles,
});

const ENTRY: PathContext = { subject: 'archive entry', root: 'archive root' };
// Unix file type bits, kept by zip tools in the high 16 bits of the external attributes.
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
// Finder's resource-fork shadows: never part of the docs, and they would hide a wrapping folder.
const MACOS_METADATA = /^__MACOSX(\/|$)/;

/**
 * The files of `archive`, by normalised path. Folders are implied by paths and not listed. When
 * every file sits in one top-level folder (`repo-main/README.md`, as GitHub archives have it), that
 * folder is removed from the paths. `__MACOSX/` entries are skipped.
 *
 * Refuses, with a ContentError: anything that is not a zip; unsafe names (see safeRelativePath);
 * two entries with the same normalised name; symbolic links and other non-regular entries;
 * encrypted entries and unknown compression; and archives past `limits`. Sizes are counted on the
 * inflated bytes as they stream, so an entry whose header lies about its size is stopped too.
 */
export async function readZip(
  archive: Buffer,
  limits: Partial<ZipLimits> = {},
): Promise<Map<string, Buffer>> {
  const { maxTotalBytes, maxEntryBytes, maxEntries } = { ...ZIP_LIMITS, ...limits };
  const zip = await openZip(archive);
  try {
    if (zip.entryCount > maxEntries) {
      throw new ContentError(
        'ARCHIVE_TOO_MANY_ENTRIES',
        `archive has ${zip.entryCount} entries, more than the limit of ${maxEntries}`,
      );
    }
    const files = new Map<string, Buffer>();
    const seen = new Set<string>();
    let totalBytes = 0;
    for await (const entry of zip.eachEntry()) {
      const rawName = entryName(entry);
      const isFolder = /[/\\]$/.test(rawName);
      const path = safeRelativePath(rawName, ENTRY);
      if (seen.has(path)) {
        throw new ContentError('ARCHIVE_INVALID', `archive entry ${path} appears twice`, { path });
      }
      seen.add(path);
      checkEntryKind(entry, path, isFolder);
      if (isFolder || MACOS_METADATA.test(path)) continue;

      // The declared size only lets a bomb fail early; inflate counts what really comes out.
      const overLimit = (size: number) => tooLarge(path, size, totalBytes, { maxEntryBytes, maxTotalBytes });
      const budget = Math.min(maxEntryBytes, maxTotalBytes - totalBytes);
      if (entry.uncompressedSize > budget) throw overLimit(entry.uncompressedSize);
      const data = await inflate(zip, entry, budget, overLimit).catch((error: unknown) => {
        if (error instanceof ContentError) throw error;
        // Bad deflate data, or more bytes than the entry declares (yauzl's validateEntrySizes).
        throw new ContentError('ARCHIVE_INVALID', `archive entry ${path} is corrupt`, { path, cause: error });
      });
      totalBytes += data.length;
      files.set(path, data);
    }
    return withoutWrapperFolder(files);
  } catch (error) {
    throw error instanceof ContentError
      ? error
      : new ContentError('ARCHIVE_INVALID', 'archive is not a readable zip file', { cause: error });
  } finally {
    zip.close();
  }
}

async function openZip(archive: Buffer): Promise<ZipFile> {
  try {
    // Names are decoded here rather than by yauzl (decodeStrings: false) so that a hostile name gets
    // safeRelativePath's error naming it; entryName decodes them with yauzl's strict rules.
    return await yauzl.fromBufferPromise(archive, {
      lazyEntries: true,
      validateEntrySizes: true,
      strictFileNames: true,
      decodeStrings: false,
    });
  } catch (error) {
    throw new ContentError('ARCHIVE_INVALID', 'archive is not a readable zip file', { cause: error });
  }
}

/** The entry's name: UTF-8 when flagged or given in the Info-ZIP extra field, CP437 otherwise. */
function entryName(entry: Entry): string {
  // Strict: backslashes are kept, so safeRelativePath judges them instead of yauzl rewriting them.
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
}

function checkEntryKind(entry: Entry, path: string, isFolder: boolean): void {
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (type === S_IFLNK) {
    throw new ContentError('ARCHIVE_INVALID', `archive entry ${path} is a symbolic link`, { path });
  }
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) {
    throw new ContentError('ARCHIVE_INVALID', `archive entry ${path} is not a regular file`, { path });
  }
  if (isFolder) return;
  if (entry.isEncrypted()) {
    throw new ContentError('ARCHIVE_INVALID', `archive entry ${path} is encrypted`, { path });
  }
  if (!entry.canDecodeFileData()) {
    throw new ContentError(
      'ARCHIVE_INVALID',
      `archive entry ${path} uses compression method ${entry.compressionMethod}, which is not supported`,
      { path },
    );
  }
}

/** The entry's inflated bytes, aborting as soon as more than `budget` have come out. */
async function inflate(
  zip: ZipFile,
  entry: Entry,
  budget: number,
  overBudget: (size: number) => ContentError,
): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop by throwing destroys the stream, which stops the inflater.
  for await (const chunk of stream) {
    const bytes: Buffer = chunk;
    size += bytes.length;
    if (size > budget) throw overBudget(size);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}

function tooLarge(
  path: string,
  size: number,
  bytesBefore: number,
  limits: Pick<ZipLimits, 'maxEntryBytes' | 'maxTotalBytes'>,
): ContentError {
  const message =
    size > limits.maxEntryBytes
      ? `archive entry ${path} inflates to more than the limit of ${limits.maxEntryBytes} bytes per entry`
      : `archive entry ${path} takes the archive past the limit of ${limits.maxTotalBytes} inflated bytes (${bytesBefore + size} or more)`;
  return new ContentError('ARCHIVE_TOO_LARGE', message, { path });
}

function withoutWrapperFolder(files: Map<string, Buffer>): Map<string, Buffer> {
  const paths = [...files.keys()];
  const first = paths[0]?.split('/', 1)[0];
  if (first === undefined || !paths.every((path) => path.startsWith(`${first}/`))) return files;
  return new Map([...files].map(([path, data]) => [path.slice(first.length + 1), data]));
}
