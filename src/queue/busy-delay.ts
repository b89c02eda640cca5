// How long a job that found its lock busy waits before it tries again: short at first, since most
// jobs hold a lock for milliseconds, then doubling up to the configured busyDelay, so that a job
// behind a long one does not poll Redis all the while. The jitter (RETRY_POLICY.busyDelaySpread)
// keeps the waiters of one lock from coming back all at once.
import { RETRY_POLICY } from './retry-policy.js';

/** The wait before the first retry, before jitter. */
export const FIRST_BUSY_RETRY_MS = 25;

/**
 * The wait after the `busyRuns`-th run of a job that found its lock busy (0 for its first), in ms:
 * FIRST_BUSY_RETRY_MS doubled per busy run, capped at `busyDelayMs`, times a factor of the spread.
 */
export function busyDelay(busyRuns: number, busyDelayMs: number, random: () => number): number {
  const [low, high] = RETRY_POLICY.busyDelaySpread;
  const base = Math.min(busyDelayMs, FIRST_BUSY_RETRY_MS * 2 ** Math.min(Math.max(0, busyRuns), 30));
  return Math.max(1, Math.round(base * (low + (high - low) * random())));
}
