// Streams the files of a bundle plan into a zip file, one file in memory at a time: the part that
// bundles from git objects and from a working copy share.
import { ContentError } from './content-error.js';
import type { BundleLimits, BundlePlan } from './plan-bundle.js';
import { README, SUMMARY } from './plan-bundle.js';
import { retargetSummaryLinks } from './retarget-summary-links.js';
import { ZipFileWriter } from './zip-file-writer.js';

export interface BundleOptions extends Partial<BundleLimits> {
  signal?: AbortSignal;
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
}

/**
 * Writes `plan` to `outFile`, taking each entry's content, in plan order, from `contents`. Each entry
 * is passed to `onEntry` as written (a hash of the bundle's content, say). The file is removed when
 * anything fails. Content larger than listed (a working copy edited meanwhile) still counts against
 * `limits.maxBytes`.
 */
export async function writeBundle<T>(
  plan: BundlePlan<T>,
  contents: AsyncIterable<Buffer>,
  outFile: string,
  limits: BundleLimits,
  options: { signal?: AbortSignal | undefined; onEntry?: (name: string, data: Buffer) => void } = {},
): Promise<WrittenBundle> {
  const writer = new ZipFileWriter(outFile);
  let bytes = 0;
  let index = 0;
  try {
    for await (const content of contents) {
      options.signal?.throwIfAborted();
      const entry = plan.entries[index];
      if (entry === undefined) throw new Error('more contents than bundle entries');
      index += 1;
      const data =
        entry.name === SUMMARY && plan.readmeRenamedFrom !== undefined
          ? Buffer.from(
              retargetSummaryLinks(content.toString('utf8'), plan.readmeRenamedFrom, README),
              'utf8',
            )
          : content;
      bytes += data.length;
      if (bytes > limits.maxBytes) {
        throw new ContentError(
          'ARCHIVE_TOO_LARGE',
          `the docs root holds more than the limit of ${limits.maxBytes} bytes (${bytes} or more)`,
          { path: entry.name },
        );
      }
      options.onEntry?.(entry.name, data);
      await writer.add(entry.name, data);
    }
    if (index !== plan.entries.length) throw new Error('fewer contents than bundle entries');
    const zipBytes = await writer.finish();
    return { files: index, bytes, zipBytes, skipped: plan.skipped, outFile };
  } catch (error) {
    await writer.abort();
    throw error;
  }
}
