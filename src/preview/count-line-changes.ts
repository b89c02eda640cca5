// How many lines a change of a page's markdown adds and removes, as `diff` counts them: the shortest
// edit script between the two texts' lines (Myers' greedy algorithm, which needs only the length of
// the script, so memory is one array over both texts). Pure. A very different pair of large texts
// would take time quadratic in their size: past a budget of work the counts are those of the lines
// each side holds more often than the other (a lower bound of the exact ones), marked approximate.

export interface LineChanges {
  added: number;
  removed: number;
  /** False when the work budget ran out and the counts are a lower bound. */
  exact: boolean;
}

/** Steps of the inner loop allowed for one pair of texts: well under a second on one core. */
const WORK_BUDGET = 40_000_000;
/** The fewest edits tried whatever the texts' size, so small changes to huge pages stay exact. */
const MIN_EDITS_TRIED = 256;

/** The lines of a text: `\n` or `\r\n` ends a line, and a final line break starts no new one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

export function countLines(text: string): number {
  return splitLines(text).length;
}

export function countLineChanges(before: string, after: string): LineChanges {
  if (before === after) return { added: 0, removed: 0, exact: true };
  const [a, b] = asNumbers(splitLines(before), splitLines(after));
  // Lines equal at both ends are no edit: most changes of a page touch a few lines in the middle.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const left = a.subarray(start, endA);
  const right = b.subarray(start, endB);
  if (left.length === 0 || right.length === 0)
    return { added: right.length, removed: left.length, exact: true };
  const maxEdits = Math.max(MIN_EDITS_TRIED, Math.floor(WORK_BUDGET / (left.length + right.length)));
  const edits = shortestEditLength(left, right, maxEdits);
  if (edits === undefined) return { ...multisetChanges(left, right), exact: false };
  // An edit script of `edits` steps turning n lines into m: (edits + m - n) / 2 of them are insertions.
  const grown = right.length - left.length;
  return { added: (edits + grown) / 2, removed: (edits - grown) / 2, exact: true };
}

/** Each distinct line as a number, so that comparing lines is comparing integers. */
function asNumbers(a: readonly string[], b: readonly string[]): [Int32Array, Int32Array] {
  const ids = new Map<string, number>();
  const encode = (lines: readonly string[]): Int32Array => {
    const out = new Int32Array(lines.length);
    lines.forEach((line, index) => {
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
      }
      out[index] = id;
    });
    return out;
  };
  return [encode(a), encode(b)];
}

/**
 * The number of insertions and deletions of the shortest script turning `a` into `b` (Myers 1986,
 * "An O(ND) difference algorithm", the forward greedy search), or undefined past `maxEdits`.
 */
function shortestEditLength(a: Int32Array, b: Int32Array, maxEdits: number): number | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  // furthest[offset + k]: the furthest x reached on diagonal k (x - y = k) with the edits so far.
  const furthest = new Int32Array(2 * max + 3);
  for (let d = 0; d <= max; d += 1) {
    for (let k = -d; k <= d; k += 2) {
      const down =
        k === -d || (k !== d && (furthest[offset + k - 1] as number) < (furthest[offset + k + 1] as number));
      let x = down ? (furthest[offset + k + 1] as number) : (furthest[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      furthest[offset + k] = x;
      if (x >= n && y >= m) return d;
    }
  }
  return undefined;
}

/** Lines `b` holds more often than `a` (added) and the other way round (removed). */
function multisetChanges(a: Int32Array, b: Int32Array): { added: number; removed: number } {
  const balance = new Map<number, number>();
  for (const line of a) balance.set(line, (balance.get(line) ?? 0) - 1);
  for (const line of b) balance.set(line, (balance.get(line) ?? 0) + 1);
  let added = 0;
  let removed = 0;
  for (const count of balance.values()) {
    if (count > 0) added += count;
    else removed -= count;
  }
  return { added, removed };
}
