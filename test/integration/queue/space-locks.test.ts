import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { LockLostError } from '../../../src/errors/lock-lost-error.js';
import { SpaceLocks } from '../../../src/queue/space-locks.js';
import { captureLog, testRedis, uniquePrefix } from '../../support/test-context.js';

const prefix = uniquePrefix('locks');
const redis = testRedis(prefix);

function locks(ttlMs = 300) {
  return new SpaceLocks(redis, { prefix, ttlMs, log: captureLog().log });
}

describe('SpaceLocks', () => {
  it('gives a space to one holder at a time', async () => {
    const first = await locks().tryAcquire('space-a', 'p1');
    expect(first).toBeDefined();
    expect(await locks().tryAcquire('space-a', 'p2')).toBeUndefined();
    expect(await locks().tryAcquire('space-b', 'p2')).toBeDefined();
    await first?.release();
    expect(await locks().tryAcquire('space-a', 'p2')).toBeDefined();
  });

  it('renews a held lock past its ttl', async () => {
    const held = await locks(200).tryAcquire('space-renew', 'p1');
    await sleep(600);
    expect(await locks(200).holder('space-renew')).toMatch(/^p1:/);
    expect(held?.lost.aborted).toBe(false);
    await held?.release();
    expect(await locks().holder('space-renew')).toBeUndefined();
  });

  it('tells the holder when another took the lock, and never releases the other one', async () => {
    const held = await locks(150).tryAcquire('space-stolen', 'p1');
    await redis.set(locks().keyOf('space-stolen'), 'p2:other', 'PX', 10_000);
    await sleep(200);
    expect(held?.lost.aborted).toBe(true);
    expect(held?.lost.reason).toBeInstanceOf(LockLostError);
    await held?.release();
    expect(await locks().holder('space-stolen')).toBe('p2:other');
  });

  it('expires the lock of a holder that vanished', async () => {
    await redis.set(locks().keyOf('space-crashed'), 'gone:1', 'PX', 100);
    await sleep(150);
    expect(await locks().tryAcquire('space-crashed', 'p1')).toBeDefined();
  });
});
