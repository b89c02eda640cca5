// The import.skipFilesOver value to propose for a docs root past the service's limits: the largest
// that makes the rest fit, so it leaves out as few files as a size threshold can, rounded down to a
// value people would write. Pure: decided from the listed sizes.

import type { ImportLimits } from '../api/schemas/service-import-limits.js';
import { roundDownReadable } from './readable-size.js';

/** A file the plan would send: its path in git and its size. */
export interface SizedFile {
  path: string;
  size: number;
}

export type SkipProposal =
  /** `threshold` leaves out `leftOut` (largest first), the fewest files that let the rest fit. */
  | { kind: 'skip'; threshold: number; leftOut: SizedFile[] }
  /** The pages alone break a limit: leaving out every other file would not be enough. */
  | { kind: 'pages-over'; pageBytes: number; pages: number }
  /** The rest would fit only without files smaller than `largestPage`: a threshold would leave it out. */
  | { kind: 'pages-in-the-way'; largestPage: SizedFile; keptBytes: number }
  /** Only a threshold under a byte would do (files of a byte or two, nothing to keep). */
  | { kind: 'none' };

const PAGE = /\.md$/i;

/** Markdown files are the pages: a threshold docsync proposes never leaves one out. */
export function isPage(file: SizedFile): boolean {
  return PAGE.test(file.path);
}

/**
 * The proposal for `files` past `limits`: whole groups of files of one size are left out, the
 * largest first, until no file is over `maxFileBytes` and the rest is within `maxBytes` (leaving
 * files out only lowers their count, which checkBundleLimits checked first). Any threshold from the
 * largest file kept to just under the smallest left out leaves out the same files; the proposal is
 * the roundest of the largest (see roundDownReadable). A proposal never leaves out a page (a
 * markdown file): its summary entry and every link to it would go.
 */
export function proposeSkipFilesOver(files: readonly SizedFile[], limits: ImportLimits): SkipProposal {
  const pages = files.filter(isPage);
  const pageBytes = pages.reduce((sum, page) => sum + page.size, 0);
  const largestPage = pages.reduce<SizedFile | undefined>(
    (largest, page) => (largest === undefined || page.size > largest.size ? page : largest),
    undefined,
  );
  if (pageBytes > limits.maxBytes || (largestPage?.size ?? 0) > limits.maxFileBytes) {
    return { kind: 'pages-over', pageBytes, pages: pages.length };
  }

  const sorted = [...files].sort((a, b) => b.size - a.size || compare(a.path, b.path));
  let kept = files.reduce((sum, file) => sum + file.size, 0);
  let next = 0;
  for (;;) {
    const size = sorted[next]?.size;
    if (size === undefined || (size <= limits.maxFileBytes && kept <= limits.maxBytes)) break;
    if (largestPage !== undefined && size <= largestPage.size) {
      return { kind: 'pages-in-the-way', largestPage, keptBytes: kept };
    }
    for (; sorted[next]?.size === size; next += 1) kept -= size;
  }
  const leftOut = sorted.slice(0, next);
  const smallestOut = leftOut.at(-1)?.size ?? Number.POSITIVE_INFINITY;
  const threshold = roundDownReadable(
    sorted[next]?.size ?? 0,
    Math.min(limits.maxFileBytes, smallestOut - 1),
  );
  if (threshold === undefined) return { kind: 'none' };
  return { kind: 'skip', threshold, leftOut };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
