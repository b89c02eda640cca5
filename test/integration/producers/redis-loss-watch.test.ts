// The look of one process for the marker of the job schedulers, called by hand on the private Redis:
// what it does when another process holds the restore, and when its own restore fails half-way.
import { describe, expect, it } from 'vitest';
import { RedisLossWatch, schedulersMarkerKey } from '../../../src/producers/redis-loss-watch.js';
import { captureLog, testRedis, uniquePrefix } from '../../support/test-context.js';

function watch(prefix: string, restore: () => Promise<void>) {
  const redis = testRedis(prefix);
  const { log, lines } = captureLog();
  const looks: string[] = [];
  const made = new RedisLossWatch({
    redis,
    prefix,
    // Never ticks during the test: each look is called by hand.
    intervalMs: 3_600_000,
    restore,
    log,
    onLook: (result) => looks.push(result),
  });
  return { redis, made, lines, looks };
}

describe('RedisLossWatch', () => {
  it('leaves the restore to the process holding its lock, and finds the marker once it is back', async () => {
    const prefix = uniquePrefix('loss-watch-elsewhere');
    let restores = 0;
    const { redis, made, looks } = watch(prefix, async () => {
      restores += 1;
    });
    await redis.ping();
    await made.start();
    expect(await made.check()).toBe('present');

    await redis.del(schedulersMarkerKey(prefix));
    await redis.set(`${prefix}:lock:restore-schedulers`, 'another process', 'PX', 30_000);
    expect(await made.check()).toBe('restoring-elsewhere');
    expect(restores).toBe(0);

    // The other process finished: the marker is back, the lock freed.
    await redis.set(schedulersMarkerKey(prefix), '{}');
    await redis.del(`${prefix}:lock:restore-schedulers`);
    expect(await made.check()).toBe('present');
    expect(looks).toEqual(['present', 'restoring-elsewhere', 'present']);
    await made.close();
  });

  it('frees its lock when its restore fails, and the next look restores', async () => {
    const prefix = uniquePrefix('loss-watch-fails');
    let attempts = 0;
    const { redis, made, lines } = watch(prefix, async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('redis went away during the restore');
    });
    await redis.ping();
    await made.start();
    await redis.del(schedulersMarkerKey(prefix));

    expect(await made.check()).toBe('failed');
    expect(await redis.exists(`${prefix}:lock:restore-schedulers`)).toBe(0);
    expect(await redis.exists(schedulersMarkerKey(prefix))).toBe(0);
    expect(
      lines.filter((line) => line.msg === 'redis came back empty, schedulers not restored yet'),
    ).toHaveLength(1);

    expect(await made.check()).toBe('restored');
    expect(await redis.exists(schedulersMarkerKey(prefix))).toBe(1);
    expect(await redis.exists(`${prefix}:lock:restore-schedulers`)).toBe(0);
    expect(lines.filter((line) => line.msg === 'redis came back empty, schedulers restored')).toHaveLength(1);
    await made.close();
    expect(await made.check()).toBe('skipped');
  });
});
