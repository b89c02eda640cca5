// Streams the files of a bundle plan into a zip file, one file in memory at a time: the part that
// bundles from git objects and from a working copy share, with the content hash both compare by.
import { createHash, hash } from 'node:crypto';
import { formatBytes } from '../config/byte-size.js';
import { ContentError } from './content-error.js';
import type { ContentWarning } from './content-warning.js';
import type { UnlistedPages } from './docs-outline.js';
import type { BundleLimits, BundlePlan, LeftOutFile } from './plan-bundle.js';
import { ZipFileWriter } from './zip-file-writer.js';

/** How a folder is bundled: the service's limits (defaults: SERVICE_IMPORT_LIMITS) and the mapping's `import` settings. */
export interface BundleOptions extends Partial<BundleLimits> {
  signal?: AbortSignal | undefined;
  skipFilesOver?: number | undefined;
  unlisted?: UnlistedPages | undefined;
}

export interface WrittenBundle {
  /** Files in the zip. */
  files: number;
  /** Content bytes in the zip, before compression. */
  bytes: number;
  /** Size of the zip file. */
  zipBytes: number;
  /** Entries left out because they are not regular files: symbolic links, submodules. */
  skipped: number;
  outFile: string;
  /**
   * sha256 (hex) over the bundle's entries in zip order, each as `name NUL sha256(content) LF`:
   * equal whenever the bundle's names and bytes are, whether it was made from a commit or from a
   * working copy, whatever the files' times. Imports compare content by it.
   */
  contentHash: string;
  /** What the import reads past (see planBundle), in the order a writer would act on them. */
  warnings: ContentWarning[];
  /** Listed files the bundle does not hold, and why. */
  leftOut: LeftOutFile<string>[];
}

/**
 * Writes `plan` to `outFile`, taking each entry's content, in plan order, from `contents`; an entry
 * with `data` (the summary the plan rewrote) is written with it instead. The file is removed when anything
 * fails. Content larger than listed (a working copy edited meanwhile) still counts against
 * `limits.maxBytes` and `limits.maxFileBytes`.
 */
export async function writeBundle(
  plan: BundlePlan<string>,
  contents: AsyncIterable<Buffer>,
  outFile: string,
  limits: BundleLimits,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<WrittenBundle> {
  const writer = new ZipFileWriter(outFile);
  const contentHash = createHash('sha256');
  let bytes = 0;
  let index = 0;
  try {
    for await (const content of contents) {
      options.signal?.throwIfAborted();
      const entry = plan.entries[index];
      if (entry === undefined) throw new Error('more contents than bundle entries');
      index += 1;
      const data = entry.data ?? content;
      bytes += data.length;
      // Only a file written to since it was listed (a working copy being edited) gets here.
      const perFile = data.length > limits.maxFileBytes;
      if (perFile || bytes > limits.maxBytes) {
        throw new ContentError(
          'ARCHIVE_TOO_LARGE',
          `${entry.path} grew since the folder was listed, past the limit of ${formatBytes(perFile ? limits.maxFileBytes : limits.maxBytes)} ${perFile ? 'per file' : 'per import'}: import again once the folder is saved`,
          { path: entry.path },
        );
      }
      // One-shot: a hash object per file costs more than the digest of a page.
      contentHash.update(`${entry.name}\0${hash('sha256', data, 'hex')}\n`);
      await writer.add(entry.name, data);
    }
    if (index !== plan.entries.length) throw new Error('fewer contents than bundle entries');
    const zipBytes = await writer.finish();
    return {
      files: index,
      bytes,
      zipBytes,
      skipped: plan.skipped,
      outFile,
      contentHash: contentHash.digest('hex'),
      warnings: plan.warnings,
      leftOut: plan.leftOut,
    };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}
