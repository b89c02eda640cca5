// Where in its interval a scheduled poll ticks: a place drawn from a key (the repository, for git
// polls), the same in every process and after every restart, so that a fleet's polls spread over
// the interval instead of ticking together, and the mappings of one repository tick together (one
// look at the repository answers all of them, src/git/git-mirror.ts).
import { createHash } from 'node:crypto';

/**
 * BullMQ's `offset` of an `every` scheduler for `key`: in [1, every - 1] ms (0 is BullMQ's "none",
 * which ticks at once and then at the moment the scheduler was made).
 */
export function pollOffsetMs(key: string, everyMs: number): number {
  if (everyMs <= 2) return 1;
  const drawn = createHash('sha256').update(key).digest().readUInt32BE(0);
  return 1 + (drawn % (everyMs - 1));
}

/**
 * The delays of the first runs of `count` new schedulers, in the order given: `paceMs` apart, or
 * closer when that would not fit in one interval, so that a new fleet's first polls start at once
 * but are not all queued in the same moment.
 */
export function firstRunDelaysMs(count: number, everyMs: number, paceMs: number): number[] {
  const step = count === 0 ? 0 : Math.min(paceMs, everyMs / count);
  return Array.from({ length: count }, (_, rank) => Math.floor(rank * step));
}
