import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { LockLostError } from '../../../src/errors/lock-lost-error.js';
import { SpaceLocks } from '../../../src/queue/space-locks.js';
import { captureLog, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const prefix = uniquePrefix('locks');
const redis = testRedis(prefix);

// ttl 1 s, the configuration's minimum: shorter ones would make the test depend on a quiet machine.
function locks(ttlMs = 1000) {
  return new SpaceLocks(redis, { prefix, ttlMs, log: captureLog().log });
}

describe('SpaceLocks', () => {
  it('gives a space to one holder at a time', async () => {
    const first = await locks().tryAcquire('space-a', 'p1');
    expect(first).toBeDefined();
    expect(await locks().tryAcquire('space-a', 'p2')).toBeUndefined();
    const other = await locks().tryAcquire('space-b', 'p2');
    expect(other).toBeDefined();
    await first?.release();
    const second = await locks().tryAcquire('space-a', 'p2');
    expect(second).toBeDefined();
    await Promise.all([other?.release(), second?.release()]);
  });

  it('renews a held lock past its ttl', async () => {
    const held = await locks().tryAcquire('space-renew', 'p1');
    await sleep(2500);
    expect(await locks().holder('space-renew')).toMatch(/^p1:/);
    expect(held?.lost.aborted).toBe(false);
    await held?.release();
    expect(await locks().holder('space-renew')).toBeUndefined();
  });

  it('tells the holder when another took the lock, and never releases the other one', async () => {
    const held = await locks().tryAcquire('space-stolen', 'p1');
    await redis.set(locks().keyOf('space-stolen'), 'p2:other', 'PX', 10_000);
    await waitFor(() => held?.lost.aborted, 'the holder to learn it lost the lock');
    expect(held?.lost.aborted).toBe(true);
    expect(held?.lost.reason).toBeInstanceOf(LockLostError);
    await held?.release();
    expect(await locks().holder('space-stolen')).toBe('p2:other');
  });

  it('expires the lock of a holder that vanished', async () => {
    await redis.set(locks().keyOf('space-crashed'), 'gone:1', 'PX', 100);
    await sleep(150);
    const taken = await locks().tryAcquire('space-crashed', 'p1');
    expect(taken).toBeDefined();
    await taken?.release();
  });
});
