import { describe, expect, it } from 'vitest';
import { LockWaiters } from '../../../src/queue/lock-waiters.js';

function waiterFor(id: string, dueAt: number, promoted: string[], fails = false) {
  return {
    id,
    dueAt,
    promote: async () => {
      if (fails) throw new Error(`job ${id} is not delayed`);
      promoted.push(id);
    },
  };
}

describe('LockWaiters', () => {
  it('wakes the waiters of a key one per release, longest waiting first', async () => {
    const promoted: string[] = [];
    const waiters = new LockWaiters(() => 1000);
    waiters.add('lock:a', waiterFor('first', 5000, promoted));
    waiters.add('lock:b', waiterFor('other key', 5000, promoted));
    waiters.add('lock:a', waiterFor('second', 2000, promoted));
    expect(await waiters.wakeNext('lock:a')).toBe('first');
    expect(await waiters.wakeNext('lock:a')).toBe('second');
    expect(await waiters.wakeNext('lock:a')).toBeUndefined();
    expect(promoted).toEqual(['first', 'second']);
    expect(waiters.count('lock:b')).toBe(1);
  });

  it('skips waiters whose retry is due or that are no longer delayed', async () => {
    const promoted: string[] = [];
    let now = 1000;
    const waiters = new LockWaiters(() => now);
    waiters.add('lock:a', waiterFor('due soon', 1500, promoted));
    waiters.add('lock:a', waiterFor('ran elsewhere', 9000, promoted, true));
    waiters.add('lock:a', waiterFor('still waiting', 9000, promoted));
    now = 2000;
    expect(await waiters.wakeNext('lock:a')).toBe('still waiting');
    expect(promoted).toEqual(['still waiting']);
    expect(waiters.count('lock:a')).toBe(0);
  });

  it('keeps one entry per job: a job delayed again waits at the back, and one that runs is forgotten', async () => {
    const promoted: string[] = [];
    const waiters = new LockWaiters(() => 0);
    waiters.add('lock:a', waiterFor('x', 100, promoted));
    waiters.add('lock:a', waiterFor('y', 100, promoted));
    waiters.add('lock:a', waiterFor('x', 200, promoted));
    expect(waiters.count('lock:a')).toBe(2);
    waiters.forget('y');
    expect(await waiters.wakeNext('lock:a')).toBe('x');
    expect(waiters.count('lock:a')).toBe(0);
  });

  it('lets go of waiters whose retry came due, so none is kept after it ran in another process', () => {
    let now = 0;
    const waiters = new LockWaiters(() => now);
    waiters.add('lock:a', waiterFor('early', 100, []));
    now = 500;
    waiters.add('lock:b', waiterFor('late', 900, []));
    expect(waiters.count('lock:a')).toBe(0);
    expect(waiters.count('lock:b')).toBe(1);
  });
});
