import { describe, expect, it } from 'vitest';
import { busyDelay, FIRST_BUSY_RETRY_MS } from '../../../src/queue/busy-delay.js';
import { RETRY_POLICY } from '../../../src/queue/retry-policy.js';

const [LOW, HIGH] = RETRY_POLICY.busyDelaySpread;
const lowest = () => 0;
const highest = () => 1;

describe('busyDelay', () => {
  it('retries a job that found its lock busy after a short wait first, whatever busyDelay is', () => {
    expect(busyDelay(0, 5000, highest)).toBe(Math.round(FIRST_BUSY_RETRY_MS * HIGH));
    expect(busyDelay(0, 5000, lowest)).toBe(Math.round(FIRST_BUSY_RETRY_MS * LOW));
    expect(busyDelay(0, 5000, highest)).toBeLessThan(5000 * LOW);
  });

  it('doubles the wait with each busy run, up to busyDelay with its spread', () => {
    const waits = Array.from({ length: 12 }, (_, runs) => busyDelay(runs, 5000, lowest));
    expect(waits).toEqual(
      waits.map((_, runs) => Math.round(Math.min(FIRST_BUSY_RETRY_MS * 2 ** runs, 5000) * LOW)),
    );
    for (let runs = 1; runs < waits.length; runs += 1)
      expect(waits[runs]).toBeGreaterThanOrEqual(waits[runs - 1] ?? 0);
    expect(busyDelay(50, 5000, highest)).toBe(5000 * HIGH);
    expect(busyDelay(10_000, 5000, lowest)).toBe(5000 * LOW);
  });

  it('spreads waiters of one lock with jitter', () => {
    expect(busyDelay(3, 5000, () => 0.25)).not.toBe(busyDelay(3, 5000, () => 0.75));
  });

  it('never waits past busyDelay when busyDelay is below the first retry', () => {
    expect(busyDelay(0, 10, highest)).toBe(10 * HIGH);
  });
});
