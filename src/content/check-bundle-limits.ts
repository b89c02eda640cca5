// Whether the files a bundle plan would send fit in one import of the service, decided from their
// listed sizes before anything is read: a folder that cannot fit is refused with what to change.

import type { ImportLimits } from '../api/schemas/service-import-limits.js';
import { formatBytes } from '../config/byte-size.js';
import { BundleTooLargeError } from './bundle-too-large-error.js';
import { ContentError } from './content-error.js';
import { proposeSkipFilesOver, type SizedFile } from './propose-skip-files-over.js';

export type { SizedFile };

const SHOWN = 10;

/**
 * Throws a ContentError when `files` break `limits`: ARCHIVE_TOO_MANY_ENTRIES past `maxFiles`
 * (naming the folders holding the most); a BundleTooLargeError (ARCHIVE_TOO_LARGE) when a file is
 * past `maxFileBytes` or all of them past `maxBytes`, naming the files at fault and the
 * `import.skipFilesOver` value that makes the folder fit with what it leaves out (see
 * proposeSkipFilesOver), or saying that none does. `skipFilesOver` is the mapping's current
 * setting, if any. Permanent: the same folder fails the same way until it or the mapping's config
 * changes.
 */
export function checkBundleLimits(
  files: readonly SizedFile[],
  limits: ImportLimits,
  skipFilesOver?: number,
): void {
  if (files.length > limits.maxFiles) {
    throw new ContentError(
      'ARCHIVE_TOO_MANY_ENTRIES',
      `the docs root has ${count(files.length)} files to import, over the limit of ${count(limits.maxFiles)} per import; ` +
        `the folders with the most: ${busiestFolders(files)}. Move files out of the docs root (or into a folder with its own .gitbook.yaml), ` +
        'or raise import.limits.maxFiles of the mapping if the service accepts more',
    );
  }
  const total = files.reduce((sum, file) => sum + file.size, 0);
  const overFile = files.filter((file) => file.size > limits.maxFileBytes);
  if (overFile.length === 0 && total <= limits.maxBytes) return;

  const largest = [...files].sort((a, b) => b.size - a.size || compare(a.path, b.path));
  const proposal = proposeSkipFilesOver(files, limits);
  const problems: string[] = [];
  if (overFile.length > 0) {
    const shown = largest.slice(0, Math.min(overFile.length, SHOWN)).map(sized).join(', ');
    const more = overFile.length > SHOWN ? ` and ${overFile.length - SHOWN} more` : '';
    problems.push(
      `${overFile.length === 1 ? 'a file is' : `${overFile.length} files are`} over the limit of ${formatBytes(limits.maxFileBytes)} per file: ${shown}${more}`,
    );
  }
  if (total > limits.maxBytes) {
    // A proposal lists the files it leaves out, the largest first: listed here too, they would
    // read twice.
    const shown =
      proposal.kind === 'skip' ? '' : `; the largest files: ${largest.slice(0, SHOWN).map(sized).join(', ')}`;
    problems.push(
      `the docs root has ${formatBytes(total)} in ${count(files.length)} files to import, over the limit of ${formatBytes(limits.maxBytes)} per import${shown}`,
    );
  }
  throw new BundleTooLargeError({
    problems: problems.join('; '),
    proposal,
    files: files.map(({ path, size }) => ({ path, size })),
    limits,
    skipFilesOver,
    path: largest[0]?.path,
  });
}

function sized(file: SizedFile): string {
  return `${file.path} (${formatBytes(file.size)})`;
}

/** The top folders by files, `(root)` for files at the top: where the files to move are. */
function busiestFolders(files: readonly SizedFile[]): string {
  const counts = new Map<string, number>();
  for (const { path } of files) {
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '(root)';
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || compare(a, b))
    .slice(0, SHOWN)
    .map(([folder, n]) => `${folder} (${count(n)})`)
    .join(', ');
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
