// A poll reads the facts of a few change requests at a time: answers in order, never more than the
// limit under way, and nothing new started once one has failed.
import { describe, expect, it } from 'vitest';
import { mapBounded } from '../../../src/concurrency/map-bounded.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapBounded', () => {
  it('answers in the order of the items with at most limit under way', async () => {
    let running = 0;
    let most = 0;
    const answers = await mapBounded([30, 5, 20, 1, 10, 2], 3, async (ms, index) => {
      running += 1;
      most = Math.max(most, running);
      await tick(ms);
      running -= 1;
      return `${index}:${ms}`;
    });
    expect(answers).toEqual(['0:30', '1:5', '2:20', '3:1', '4:10', '5:2']);
    expect(most).toBe(3);
    expect(await mapBounded([], 4, async () => 1)).toEqual([]);
  });

  it('fails with the first failure and starts nothing after it', async () => {
    const started: number[] = [];
    const run = mapBounded([1, 2, 3, 4, 5, 6], 2, async (item) => {
      started.push(item);
      await tick(5);
      if (item === 2) throw new Error('the service refused');
      return item;
    });
    await expect(run).rejects.toThrow('the service refused');
    await tick(30);
    expect(started).toEqual([1, 2, 3]);
  });
});
