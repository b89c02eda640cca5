import { describe, expect, it } from 'vitest';
import { RETRY_POLICY } from '../../../src/queue/retry-policy.js';
import { backOffDelayMs, backOffLeftMs, nextBackOff } from '../../../src/queue/work-back-off.js';

const { firstMs, maxMs, spread } = RETRY_POLICY.failedWorkBackOff;
const [LOW, HIGH] = spread;
const lowest = () => 0;
const middle = () => 0.5;
const highest = () => 1;
const NOW = new Date('2026-11-21T12:00:00.000Z');

describe('backOffDelayMs', () => {
  it('waits 2 s after the first failure, doubling with each failure in a row, up to 10 minutes', () => {
    expect(firstMs).toBe(2000);
    expect(maxMs).toBe(600_000);
    const waits = Array.from({ length: 12 }, (_, index) => backOffDelayMs(index + 1, middle));
    expect(waits).toEqual([
      2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000, 256_000, 512_000, 600_000, 600_000, 600_000,
    ]);
    expect(backOffDelayMs(10_000, highest)).toBe(maxMs);
  });

  it('spreads each wait by a random factor of its range, never past the cap', () => {
    expect(backOffDelayMs(1, lowest)).toBe(firstMs * LOW);
    expect(backOffDelayMs(1, highest)).toBe(firstMs * HIGH);
    expect(backOffDelayMs(3, () => 0.25)).not.toBe(backOffDelayMs(3, () => 0.75));
    expect(backOffDelayMs(9, highest)).toBe(maxMs);
    expect(backOffDelayMs(9, lowest)).toBe(Math.round(firstMs * 2 ** 8 * LOW));
  });

  it('allows at most 6 tries in the first minute of failures, at the shortest waits', () => {
    let at = 0;
    let tries = 0;
    while (at <= 60_000) {
      tries += 1;
      at += backOffDelayMs(tries, lowest);
    }
    expect(tries).toBe(6);
  });
});

describe('nextBackOff', () => {
  it('counts the failures in a row and sets the next try from the last one', () => {
    const first = nextBackOff(undefined, undefined, 'import/docs/abc', NOW, middle);
    expect(first).toEqual({
      failures: 1,
      at: NOW.toISOString(),
      nextTry: '2026-11-21T12:00:02.000Z',
      job: 'import/docs/abc',
    });
    const later = new Date(NOW.getTime() + 3000);
    const second = nextBackOff(first, undefined, 'import/docs/abc/rerun-1', later, middle);
    expect(second).toMatchObject({
      failures: 2,
      nextTry: '2026-11-21T12:00:07.000Z',
      job: 'import/docs/abc/rerun-1',
    });
  });

  it('starts again at one after a start of docsync', () => {
    const before = nextBackOff(
      { failures: 7, at: NOW.toISOString(), nextTry: NOW.toISOString(), job: 'a' },
      undefined,
      'b',
      NOW,
      middle,
    );
    expect(before.failures).toBe(8);
    const restarted = nextBackOff(before, NOW.getTime() + 1, 'c', new Date(NOW.getTime() + 5), middle);
    expect(restarted.failures).toBe(1);
  });
});

describe('backOffLeftMs', () => {
  const record = nextBackOff(undefined, undefined, 'a', NOW, middle);

  it('is the wait left until the next try, then nothing', () => {
    expect(backOffLeftMs(record, undefined, NOW)).toBe(2000);
    expect(backOffLeftMs(record, undefined, new Date(NOW.getTime() + 1500))).toBe(500);
    expect(backOffLeftMs(record, undefined, new Date(NOW.getTime() + 2000))).toBe(0);
    expect(backOffLeftMs(undefined, undefined, NOW)).toBe(0);
  });

  it('is nothing for a record written before the last start of docsync', () => {
    expect(backOffLeftMs(record, NOW.getTime() + 1, new Date(NOW.getTime() + 10))).toBe(0);
    expect(backOffLeftMs(record, NOW.getTime() - 1, new Date(NOW.getTime() + 10))).toBe(1990);
  });
});
