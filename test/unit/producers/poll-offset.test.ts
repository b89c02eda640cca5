// The places of scheduled polls in their interval: evenly spread, whatever the configuration's
// order, moved little by a new key; and the paced first runs of new ones.
import { describe, expect, it } from 'vitest';
import { firstRunDelaysMs, spreadOffsetsMs } from '../../../src/producers/poll-offset.js';

const EVERY_MS = 60_000;
const keys = Array.from({ length: 100 }, (_, i) => `/repos/r${i}.git`);

describe('spreadOffsetsMs', () => {
  it('places 100 keys a step of every / 100 apart, inside the interval and never at 0', () => {
    const offsets = [...spreadOffsetsMs(keys, EVERY_MS).values()].sort((a, b) => a - b);
    expect(offsets).toHaveLength(100);
    expect(offsets[0]).toBeGreaterThanOrEqual(1);
    expect(offsets.at(-1)).toBeLessThan(EVERY_MS);
    for (let i = 1; i < offsets.length; i += 1)
      expect(Math.abs((offsets[i] ?? 0) - (offsets[i - 1] ?? 0) - EVERY_MS / 100)).toBeLessThanOrEqual(1);
  });

  it('gives each key the same place whatever the order of the keys, and one place to a repeated key', () => {
    const forward = spreadOffsetsMs([...keys, keys[0] ?? ''], EVERY_MS);
    const backward = spreadOffsetsMs([...keys].reverse(), EVERY_MS);
    expect(forward).toEqual(backward);
  });

  it('moves the other keys by at most one step when a key is added', () => {
    const before = spreadOffsetsMs(keys, EVERY_MS);
    const after = spreadOffsetsMs([...keys, '/repos/new.git'], EVERY_MS);
    for (const key of keys)
      expect(Math.abs((after.get(key) ?? 0) - (before.get(key) ?? 0))).toBeLessThanOrEqual(EVERY_MS / 100);
  });
});

describe('firstRunDelaysMs', () => {
  it('starts the first at once and paces the others, closer when they would not fit in the interval', () => {
    expect(firstRunDelaysMs(3, EVERY_MS, 50)).toEqual([0, 50, 100]);
    expect(firstRunDelaysMs(4, 100, 50)).toEqual([0, 25, 50, 75]);
    expect(firstRunDelaysMs(0, EVERY_MS, 50)).toEqual([]);
  });
});
