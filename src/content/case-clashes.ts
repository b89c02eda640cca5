// Paths that differ only in letter case (`Info.png`, `info.png`): git and Linux keep both, but a
// checkout on macOS or Windows holds one of them only. Both stay in the tree; each pair is a warning.
import type { ContentWarning } from './content-warning.js';

/** One PATH_CASE_CLASH warning per pair of `paths` that are equal ignoring case, in path order. */
export function caseClashes(paths: Iterable<string>): ContentWarning[] {
  const byFolded = new Map<string, string[]>();
  for (const path of [...new Set(paths)].sort(byCodeUnits)) {
    const folded = path.toLowerCase();
    byFolded.set(folded, [...(byFolded.get(folded) ?? []), path]);
  }
  const warnings: ContentWarning[] = [];
  for (const same of byFolded.values()) {
    same.forEach((first, index) => {
      for (const second of same.slice(index + 1)) {
        warnings.push({
          code: 'PATH_CASE_CLASH',
          file: first,
          message: `${first} and ${second} differ only in letter case: both are kept, but a checkout on macOS or Windows holds only one of them; rename one`,
        });
      }
    });
  }
  return warnings;
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
