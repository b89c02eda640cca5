// What changed between two link checks of the same target: links broken since the last check,
// links fixed since, and links still broken. Pure, so the log can say one line per change rather
// than the whole list every time.
import type { BrokenLink } from '../links/broken-link.js';

export interface BrokenLinkDiff {
  broken: BrokenLink[];
  fixed: BrokenLink[];
  stillBroken: BrokenLink[];
}

const keyOf = (link: BrokenLink) => `${link.pageId}\0${link.target}`;

export function diffBrokenLinks(
  previous: readonly BrokenLink[],
  current: readonly BrokenLink[],
): BrokenLinkDiff {
  const before = new Set(previous.map(keyOf));
  const now = new Set(current.map(keyOf));
  return {
    broken: current.filter((link) => !before.has(keyOf(link))),
    fixed: previous.filter((link) => !now.has(keyOf(link))),
    stillBroken: current.filter((link) => before.has(keyOf(link))),
  };
}
