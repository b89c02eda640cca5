// The takes and releases of one tick go to Redis in one script call, releases
// first: on a real Redis, a lock given up and taken in one tick passes from holder to holder with
// no moment free for another process, takes of one tick are each answered as if alone, and a
// release that never reaches Redis (its process died) leaves a lock that expires all the same.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { SpaceLocks } from '../../../src/queue/space-locks.js';
import { closeAfter } from '../../support/close-after.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const prefix = uniquePrefix('lock-batches');
const redis = testRedis(prefix);

/** A process of its own: its own connection and its own locks. */
function processLocks(ttlMs = 10_000): { locks: SpaceLocks; client: Redis } {
  const client = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  closeAfter(() => client.disconnect());
  return { locks: new SpaceLocks(client, { prefix, ttlMs, log: captureLog().log }), client };
}

describe('SpaceLocks batches', () => {
  it('passes a lock released and taken in one tick to the taker, never to another process', async () => {
    const here = processLocks();
    const elsewhere = processLocks();
    for (let round = 0; round < 20; round += 1) {
      const space = `space-pass-${round}`;
      const holder = await here.locks.tryAcquire(space, 'here');
      expect(holder).toBeDefined();
      // Another process asks in the same instant, on its own connection.
      const [next, other] = await Promise.all([
        (async () => {
          void holder?.release();
          return here.locks.tryAcquire(space, 'here-next');
        })(),
        elsewhere.locks.tryAcquire(space, 'elsewhere'),
      ]);
      expect(next).toBeDefined();
      expect(other).toBeUndefined();
      expect(await here.locks.holder(space)).toMatch(/^here-next:/);
      await next?.release();
    }
  });

  it('answers each take of one tick as if alone: one holder per key', async () => {
    const { locks } = processLocks();
    const [first, second, other] = await Promise.all([
      locks.tryAcquire('space-same', 'p1'),
      locks.tryAcquire('space-same', 'p2'),
      locks.tryAcquire('space-other', 'p3'),
    ]);
    expect(first).toBeDefined();
    expect(second).toBeUndefined();
    expect(other).toBeDefined();
    expect(await locks.holder('space-same')).toMatch(/^p1:/);
    // A reader of the key is a lock of its own: taken beside the writer in the same call.
    const reader = await locks.tryAcquire('space-same', 'p4', undefined, 'read');
    expect(reader).toBeDefined();
    await Promise.all([first?.release(), other?.release(), reader?.release()]);
    expect(await locks.holder('space-same')).toBeUndefined();
    expect(await locks.holder('space-other')).toBeUndefined();
  });

  it('lets the lock of a process that died before its release reached Redis expire', async () => {
    const dying = processLocks(1000);
    const held = await dying.locks.tryAcquire('space-dies', 'dying');
    expect(held).toBeDefined();
    // The process dies: its connection is gone before the release is sent. The release settles.
    dying.client.disconnect();
    await held?.release();
    const { locks } = processLocks();
    expect(await locks.tryAcquire('space-dies', 'next')).toBeUndefined();
    const next = await waitFor(() => locks.tryAcquire('space-dies', 'next'), 'the lock to expire', 10_000);
    expect(await locks.holder('space-dies')).toMatch(/^next:/);
    await next.release();
  });

  it('renews every lock it holds past their ttl', async () => {
    const { locks } = processLocks(1000);
    const spaces = ['space-r1', 'space-r2', 'space-r3'];
    const held = await Promise.all(spaces.map((space) => locks.tryAcquire(space, 'p1')));
    // A renewal shows as the key's remaining time going up; four of each take longer than the ttl.
    const last = new Map<string, number>();
    const seen = new Map<string, number>();
    await waitFor(async () => {
      for (const space of spaces) {
        const left = await redis.pttl(locks.keyOf(space));
        if (left > (last.get(space) ?? left)) seen.set(space, (seen.get(space) ?? 0) + 1);
        last.set(space, left);
      }
      return spaces.every((space) => (seen.get(space) ?? 0) >= 4);
    }, 'four renewals of each lock');
    for (const space of spaces) expect(await locks.holder(space)).toMatch(/^p1:/);
    expect(held.every((lock) => lock !== undefined && !lock.lost.aborted)).toBe(true);
    await Promise.all(held.map((lock) => lock?.release()));
  });
});
