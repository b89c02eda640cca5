// Whether the files a bundle plan would send fit in one import of the service, decided from their
// listed sizes before anything is read: a folder that cannot fit is refused with what to change.
import { formatBytes } from '../config/byte-size.js';
import { ContentError } from './content-error.js';
import type { ImportLimits } from './service-limits.js';

/** A file the plan would send: its path in git and its size. */
export interface SizedFile {
  path: string;
  size: number;
}

const SHOWN = 10;
const KIB = 1024;
const MIB = 1024 * KIB;
// The values suggested for import.skipFilesOver below the per-file limit, largest first: round
// numbers people would pick.
const SKIP_STEPS = [20 * MIB, 10 * MIB, 5 * MIB, 2 * MIB, MIB, 512 * KIB, 256 * KIB, 100 * KIB];

/**
 * Throws a ContentError when `files` break `limits`: ARCHIVE_TOO_MANY_ENTRIES past `maxFiles`
 * (naming the folders holding the most), ARCHIVE_TOO_LARGE when a file is past `maxFileBytes` or
 * all of them past `maxBytes` (naming the largest files, and the `import.skipFilesOver` value that
 * would make the folder fit). `skipFilesOver` is the mapping's current setting, if any. Permanent:
 * the same folder fails the same way until it or the mapping's config changes.
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
  const problems: string[] = [];
  if (overFile.length > 0) {
    const shown = largest.slice(0, Math.min(overFile.length, SHOWN)).map(sized).join(', ');
    const more = overFile.length > SHOWN ? ` and ${overFile.length - SHOWN} more` : '';
    problems.push(
      `${overFile.length === 1 ? 'a file is' : `${overFile.length} files are`} over the limit of ${formatBytes(limits.maxFileBytes)} per file: ${shown}${more}`,
    );
  }
  if (total > limits.maxBytes) {
    problems.push(
      `the docs root has ${formatBytes(total)} in ${count(files.length)} files to import, over the limit of ${formatBytes(limits.maxBytes)} per import; ` +
        `the largest files: ${largest.slice(0, SHOWN).map(sized).join(', ')}`,
    );
  }
  throw new ContentError(
    'ARCHIVE_TOO_LARGE',
    `${problems.join('; ')}. ${fix(files, limits, skipFilesOver)}`,
    {
      ...(largest[0] === undefined ? {} : { path: largest[0].path }),
    },
  );
}

/** What to change: the largest round `import.skipFilesOver` that makes the rest fit, if one does. */
function fix(files: readonly SizedFile[], limits: ImportLimits, skipFilesOver: number | undefined): string {
  const candidates = [limits.maxFileBytes, ...SKIP_STEPS.filter((step) => step < limits.maxFileBytes)];
  const step = candidates.find((threshold) => {
    if (skipFilesOver !== undefined && threshold >= skipFilesOver) return false;
    return files.reduce((sum, file) => sum + (file.size > threshold ? 0 : file.size), 0) <= limits.maxBytes;
  });
  const setting = skipFilesOver === undefined ? 'Set' : `Lower (from ${formatBytes(skipFilesOver)})`;
  if (step === undefined) {
    return 'Move large files out of the docs root; no import.skipFilesOver setting makes the rest fit';
  }
  const leftOut = files.filter((file) => file.size > step).length;
  return (
    `${setting} import.skipFilesOver of the mapping, for example skipFilesOver: ${formatBytes(step).replace(' ', '')} ` +
    `(it would leave out ${leftOut} ${leftOut === 1 ? 'file' : 'files'}, each listed as a warning and kept in git), ` +
    'or move large files out of the docs root'
  );
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
