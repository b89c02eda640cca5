import { describe, expect, it } from 'vitest';
import { SharedLimit } from '../../../src/concurrency/shared-limit.js';

/** A work the test ends by hand, recording when it started. */
function controlled(started: string[], name: string) {
  let end: (value?: unknown) => void = () => {};
  let fail: (error: Error) => void = () => {};
  const done = new Promise((resolve, reject) => {
    end = resolve;
    fail = reject;
  });
  return {
    work: async () => {
      started.push(name);
      return done;
    },
    end: () => end(name),
    fail: (error: Error) => fail(error),
  };
}

describe('a limit shared by many callers', () => {
  it('runs at most its size at once, the others in the order they came, a failure freeing its turn', async () => {
    const limit = new SharedLimit(2);
    const started: string[] = [];
    const works = ['a', 'b', 'c', 'd'].map((name) => controlled(started, name));
    const runs = works.map(({ work }) => limit.run(work));
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    expect(limit.active).toBe(2);
    works[1]?.fail(new Error('b failed'));
    await expect(runs[1]).rejects.toThrow('b failed');
    expect(started).toEqual(['a', 'b', 'c']);
    works[0]?.end();
    expect(await runs[0]).toBe('a');
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    expect(limit.active).toBe(2);
    works[2]?.end();
    works[3]?.end();
    expect(await Promise.all([runs[2], runs[3]])).toEqual(['c', 'd']);
    expect(limit.active).toBe(0);
  });
});
