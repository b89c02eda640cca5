// Which entries of git's summary and of the space's structure are the same entry, for the summary
// rewriter: entries are matched by what they point at (a document's path, a link's address and
// title, a placeholder's or group's title), nesting level and group, groups first so that the pages
// of a renamed group stay in it; of those, the largest set in the same order in both is kept (a
// longest increasing subsequence, n log n), and what is left between two kept entries is paired up
// in order, so that a page whose path or title changed in place keeps its line. Pure.
import type { OutlineEntry } from './docs-outline.js';
import type { TocEntry } from './toc-entry.js';

/** An entry of either side in reading order, with where it sits. */
export interface Item<E> {
  entry: E;
  key: string;
  /** List nesting: 0 for top-level entries and the pages of a group, -1 for a group itself. */
  level: number;
  /** The key of the group the entry is in; '' outside groups. */
  group: string;
  /** Index of the parent item in the same list; -1 at the top. */
  parent: number;
}

export interface EntryMatch {
  git: Item<OutlineEntry>[];
  mine: Item<TocEntry>[];
  /** Space entry index to the git entry index it keeps the place of. */
  partner: Map<number, number>;
}

/** How far past the last pairing the pairing looks for a git entry to take a space entry's place. */
const PAIRING_WINDOW = 32;

export function matchEntries(current: readonly OutlineEntry[], space: readonly TocEntry[]): EntryMatch {
  const git = flatten<OutlineEntry>(current, (entry) => (entry.kind === 'link' ? [] : entry.pages));
  const mine = flatten<TocEntry>(space, (entry) => (entry.kind === 'link' ? [] : entry.pages));
  sameGroups(git, mine);
  const matches = keptMatches(git, mine);
  const partner = new Map<number, number>(matches.map(([g, s]) => [s, g]));
  pairLeftovers(git, mine, matches, partner);
  return { git, mine, partner };
}

function flatten<E extends OutlineEntry | TocEntry>(
  entries: readonly E[],
  children: (entry: E) => readonly E[],
): Item<E>[] {
  const items: Item<E>[] = [];
  const seen = new Map<string, number>();
  const visit = (list: readonly E[], level: number, group: string, parent: number): void => {
    for (const entry of list) {
      const base = keyOf(entry);
      const occurrence = seen.get(base) ?? 0;
      seen.set(base, occurrence + 1);
      const key = `${base}#${occurrence}`;
      const isGroup = entry.kind === 'group';
      items.push({ entry, key, level: isGroup ? -1 : level, group, parent });
      const index = items.length - 1;
      visit(children(entry), isGroup ? 0 : level + 1, isGroup ? key : group, index);
    }
  };
  visit(entries, 0, '', -1);
  return items;
}

function keyOf(entry: OutlineEntry | TocEntry): string {
  if (entry.kind === 'document') return `document\0${entry.path}`;
  // A link without text reads back titled by its address.
  if (entry.kind === 'link') return `link\0${entry.href}\0${entry.title || entry.href}`;
  return `${entry.kind}\0${entry.title}`;
}

/**
 * Groups are matched first, so that the pages of a group renamed in place are still in the same
 * group: each space entry's `group` becomes the key of the git group it corresponds to.
 */
function sameGroups(git: readonly Item<OutlineEntry>[], mine: Item<TocEntry>[]): void {
  const gitGroups = git.filter((item) => item.entry.kind === 'group');
  const myGroups = mine.filter((item) => item.entry.kind === 'group');
  const partner = new Map<number, number>(keptMatches(gitGroups, myGroups).map(([g, s]) => [s, g]));
  pairLeftovers(
    gitGroups,
    myGroups,
    [...partner].map(([s, g]) => [g, s] as [number, number]).sort((a, b) => a[0] - b[0]),
    partner,
  );
  const renamed = new Map<string, string>();
  myGroups.forEach((item, index) => {
    const g = partner.get(index);
    renamed.set(item.key, g === undefined ? `new\0${item.key}` : (gitGroups[g]?.key ?? ''));
  });
  for (const item of mine) if (item.group !== '') item.group = renamed.get(item.group) ?? item.group;
}

/**
 * Pairs (git index, space index) of the same entry at the same level in the same group, the
 * largest set in the same order in both (a longest increasing subsequence, n log n).
 */
function keptMatches(
  git: readonly Item<OutlineEntry>[],
  mine: readonly Item<TocEntry>[],
): [number, number][] {
  const byKey = new Map(git.map((item, index) => [item.key, index]));
  const candidates: [number, number][] = [];
  mine.forEach((item, s) => {
    const g = byKey.get(item.key);
    const other = g === undefined ? undefined : git[g];
    if (g !== undefined && other !== undefined && other.level === item.level && other.group === item.group)
      candidates.push([g, s]);
  });
  // Patience sorting on the git indices, in space order.
  const tails: number[] = [];
  const previous: number[] = [];
  candidates.forEach(([g], index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const tail = candidates[tails[middle] ?? 0]?.[0] ?? 0;
      if (tail < g) low = middle + 1;
      else high = middle;
    }
    previous[index] = low > 0 ? (tails[low - 1] ?? -1) : -1;
    tails[low] = index;
  });
  const kept: [number, number][] = [];
  for (let index = tails.at(-1) ?? -1; index >= 0; index = previous[index] ?? -1) {
    const pair = candidates[index];
    if (pair !== undefined) kept.unshift(pair);
  }
  return kept;
}

/**
 * Between two kept matches, an entry of the space and one of git of the same kind, level and group
 * take each other's place in order: a page whose path or title changed keeps its line.
 */
function pairLeftovers(
  git: readonly Item<OutlineEntry>[],
  mine: readonly Item<TocEntry>[],
  matches: readonly [number, number][],
  partner: Map<number, number>,
): void {
  const bounds: [number, number][] = [[-1, -1], ...matches, [git.length, mine.length]];
  for (let b = 0; b + 1 < bounds.length; b += 1) {
    const [gFrom, sFrom] = bounds[b] ?? [0, 0];
    const [gTo, sTo] = bounds[b + 1] ?? [0, 0];
    let g = gFrom + 1;
    for (let s = sFrom + 1; s < sTo; s += 1) {
      const item = mine[s];
      if (item === undefined) continue;
      // A bounded look ahead: a region where everything changed costs no more than linear time.
      for (let look = g; look < Math.min(gTo, g + PAIRING_WINDOW); look += 1) {
        const other = git[look];
        if (
          other !== undefined &&
          other.entry.line !== undefined &&
          other.entry.kind === item.entry.kind &&
          other.level === item.level &&
          other.group === item.group
        ) {
          partner.set(s, look);
          g = look + 1;
          break;
        }
      }
    }
  }
}
