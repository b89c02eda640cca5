// How long work that failed for good waits before a producer's enqueue of it becomes a rerun: the
// policy's first wait, doubled per failure of the work in a row, times a random factor of its
// spread, at most its cap (RETRY_POLICY.failedWorkBackOff). A start of docsync resets every run of
// failures: a record written before it counts as none. Pure: the store (work-back-offs.ts) reads
// and writes the records.
import { z } from 'zod';
import { RETRY_POLICY } from './retry-policy.js';

/** What the store keeps of a work's failures for good in a row, until the work next completes. */
export const workBackOffSchema = z.object({
  failures: z.number().int().positive(),
  /** When the last failure was recorded, ISO 8601. */
  at: z.string(),
  /** Until then (ISO 8601), the work queued again is not run again. */
  nextTry: z.string(),
  /** The id of the job that failed last: what a producer queuing the work meanwhile gets back. */
  job: z.string(),
});

export type WorkBackOff = z.infer<typeof workBackOffSchema>;

/** The wait after the `failures`-th failure in a row (1 for the first), in ms. */
export function backOffDelayMs(failures: number, random: () => number): number {
  const { firstMs, maxMs, spread } = RETRY_POLICY.failedWorkBackOff;
  const [low, high] = spread;
  const doubled = firstMs * 2 ** Math.min(Math.max(0, failures - 1), 30);
  return Math.round(Math.min(maxMs, doubled * (low + (high - low) * random())));
}

/** A record written before the last reset (a start of docsync, in ms since the epoch) is no more. */
function counts(record: WorkBackOff, resetAt: number | undefined): boolean {
  return resetAt === undefined || Date.parse(record.at) > resetAt;
}

/** The record after one more failure of the work, by job `job`, at `now`. */
export function nextBackOff(
  previous: WorkBackOff | undefined,
  resetAt: number | undefined,
  job: string,
  now: Date,
  random: () => number,
): WorkBackOff {
  const failures = (previous !== undefined && counts(previous, resetAt) ? previous.failures : 0) + 1;
  const nextTry = new Date(now.getTime() + backOffDelayMs(failures, random));
  return { failures, at: now.toISOString(), nextTry: nextTry.toISOString(), job };
}

/** How long the work still waits at `now`, in ms; 0 when it may run again. */
export function backOffLeftMs(
  record: WorkBackOff | undefined,
  resetAt: number | undefined,
  now: Date,
): number {
  if (record === undefined || !counts(record, resetAt)) return 0;
  return Math.max(0, Date.parse(record.nextTry) - now.getTime());
}
