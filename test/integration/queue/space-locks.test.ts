import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { LockLostError } from '../../../src/errors/lock-lost-error.js';
import { SpaceLocks } from '../../../src/queue/space-locks.js';
import { closeAfter } from '../../support/close-after.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const prefix = uniquePrefix('locks');
const redis = testRedis(prefix);

// ttl 1 s, the configuration's minimum: shorter ones would make the test depend on a quiet machine.
function locks(ttlMs = 1000) {
  return new SpaceLocks(redis, { prefix, ttlMs, log: captureLog().log });
}

/**
 * Waits until the lock's key has been renewed `count` times, seen as its remaining time going up:
 * each renewal is a completed poll of the holder, so the wait fails if the holder never renews.
 */
async function renewals(key: string, count: number): Promise<void> {
  let seen = 0;
  let last = await redis.pttl(key);
  await waitFor(async () => {
    const left = await redis.pttl(key);
    if (left > last) seen += 1;
    last = left;
    return seen >= count;
  }, `${count} renewals of ${key}`);
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
    // Renewed every ttl/3: four renewals take longer than the ttl itself.
    await renewals(locks().keyOf('space-renew'), 4);
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

  it('keeps a lock whose renewals fail until its ttl has passed on its clock, then tells the holder', async () => {
    let now = 1_000_000;
    const client = new Redis(redisUrl(), { maxRetriesPerRequest: null });
    closeAfter(() => client.disconnect());
    const { log, lines } = captureLog();
    const clocked = new SpaceLocks(client, { prefix, ttlMs: 1000, log, now: () => now });
    const held = await clocked.tryAcquire('space-unreachable', 'p1');
    expect(held).toBeDefined();
    // Redis is out of reach from here on: every renewal fails.
    client.disconnect();
    const failures = () => lines.filter((line) => String(line.msg).startsWith('space lock renewal failed'));

    now += 999;
    await waitFor(() => failures().length >= 2, 'two failed renewals');
    expect(held?.lost.aborted).toBe(false);
    expect(failures()[0]).toMatchObject({ level: 'debug', lock: clocked.keyOf('space-unreachable') });

    now += 1;
    await waitFor(() => held?.lost.aborted, 'the holder to learn it lost the lock');
    const reason: unknown = held?.lost.reason;
    expect(reason).toBeInstanceOf(LockLostError);
    expect(reason instanceof LockLostError ? reason.cause : undefined).toBeInstanceOf(Error);
    await held?.release();
  });

  it('expires the lock of a holder that vanished', async () => {
    await redis.set(locks().keyOf('space-crashed'), 'gone:1', 'PX', 100);
    await waitFor(async () => (await locks().holder('space-crashed')) === undefined, 'the lock to expire');
    const taken = await locks().tryAcquire('space-crashed', 'p1');
    expect(taken).toBeDefined();
    await taken?.release();
  });
});
