import { describe, expect, it } from 'vitest';
import { LocalTurns } from '../../../src/queue/local-turns.js';

/** Settles the microtasks queued so far, so that a resolved wait has run its continuation. */
async function settle(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('LocalTurns', () => {
  it('lets a job wait for a lock held here, and starts it when the holder gives the lock up', async () => {
    const turns = new LocalTurns(60_000);
    turns.holding('lock:a');
    const order: string[] = [];
    const wait = turns.wait('lock:a');
    expect(wait).toBeDefined();
    void wait?.then(() => order.push('waiter goes on'));
    await settle();
    expect(order).toEqual([]);
    expect(turns.waiting('lock:a')).toBe(true);
    order.push('holder releases');
    expect(turns.released('lock:a')).toBe(true);
    await settle();
    expect(order).toEqual(['holder releases', 'waiter goes on']);
    expect(turns.waiting('lock:a')).toBe(false);
  });

  it('asks Redis at once for a lock no job here holds, or one another job here already waits for', () => {
    const turns = new LocalTurns(60_000);
    expect(turns.wait('lock:free')).toBeUndefined();
    turns.holding('lock:a');
    expect(turns.wait('lock:a')).toBeDefined();
    expect(turns.wait('lock:a')).toBeUndefined();
    // Another key held here has its own waiter.
    turns.holding('lock:b');
    expect(turns.wait('lock:b')).toBeDefined();
  });

  it('gives up waiting after maxWaitMs, so that a long holder never keeps a slot', async () => {
    const turns = new LocalTurns(20);
    turns.holding('lock:long');
    await turns.wait('lock:long');
    // It gave up on its own: the holder's later release wakes nobody, and a new job may wait.
    expect(turns.waiting('lock:long')).toBe(false);
    expect(turns.wait('lock:long')).toBeDefined();
    expect(turns.released('lock:long')).toBe(true);
    expect(turns.released('lock:long')).toBe(false);
  });

  it('tells a release that nobody waits here', () => {
    const turns = new LocalTurns(60_000);
    turns.holding('lock:a');
    expect(turns.released('lock:a')).toBe(false);
    expect(turns.wait('lock:a')).toBeUndefined();
  });
});
