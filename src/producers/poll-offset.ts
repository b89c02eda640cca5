// Where in its interval a scheduled poll ticks. The keys (the repositories, for git polls) of one
// interval are placed evenly over it, in an order drawn from each key, so that a fleet's polls
// spread over the interval instead of ticking together (a place drawn at random would put 5 or 6
// of 100 repositories in one second of a minute), the mappings of one repository tick together (one
// look at the repository answers all of them, src/git/git-mirror.ts), and a restart with the same
// configuration, in any process, gives every key the place it had.
import { createHash } from 'node:crypto';

/** A key's place in the order: its hash, so that the configuration's order does not matter. */
function drawn(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0);
}

/**
 * BullMQ's `offset` of an `every` scheduler for each of `keys`: evenly spaced in [1, every - 1] ms
 * (0 is BullMQ's "none", which ticks at once and then at the moment the scheduler was made).
 * Adding a key moves the others by at most one step of `every / keys`.
 */
export function spreadOffsetsMs(keys: readonly string[], everyMs: number): Map<string, number> {
  const distinct = [...new Set(keys)].sort((a, b) => drawn(a) - drawn(b) || (a < b ? -1 : 1));
  const span = Math.max(1, everyMs - 1);
  return new Map(distinct.map((key, rank) => [key, 1 + Math.floor(((rank + 0.5) * span) / distinct.length)]));
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
