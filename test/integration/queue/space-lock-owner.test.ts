// The release and the take-over of a space lock, on a real Redis: a lock is released by its owner
// only (a stale owner whose lock was taken over or expired leaves the new holder alone), a lock of
// a run that is over is taken over in the same call that finds it, and readers of a space exclude
// one another but never a writer.
import { describe, expect, it } from 'vitest';
import { SpaceLocks } from '../../../src/queue/space-locks.js';
import { monitorRedis } from '../../support/monitor-redis.js';
import { captureLog, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const prefix = uniquePrefix('lock-owner');
const redis = testRedis(prefix);
const captured = captureLog();
const locks = new SpaceLocks(redis, { prefix, ttlMs: 10_000, log: captured.log });

describe('SpaceLocks owners', () => {
  it('lets a stale owner whose run ended release nothing once its lock was taken over', async () => {
    // The run named by the token has no BullMQ job lock in Redis: its process is gone.
    const stale = await locks.tryAcquire('space-over', 'p1', { queue: 'import', job: 'j1', token: 't1' });
    expect(stale).toBeDefined();
    const taker = await locks.tryAcquire('space-over', 'p2', { queue: 'import', job: 'j2', token: 't2' });
    expect(taker).toBeDefined();
    expect(captured.lines).toContainEqual(
      expect.objectContaining({
        msg: 'space lock of a job run that ended taken over',
        holder: 'p1 import/j1',
      }),
    );
    const holding = await locks.holder('space-over');
    expect(JSON.parse(holding ?? '{}')).toMatchObject({ owner: 'p2', job: 'j2' });

    await stale?.release();
    expect(await locks.holder('space-over')).toBe(holding);
    await taker?.release();
    expect(await locks.holder('space-over')).toBeUndefined();
  });

  it('leaves the lock of a live run alone', async () => {
    await redis.set(`${prefix}:import:j3:lock`, 't3', 'PX', 10_000);
    const live = await locks.tryAcquire('space-live', 'p1', { queue: 'import', job: 'j3', token: 't3' });
    expect(live).toBeDefined();
    expect(
      await locks.tryAcquire('space-live', 'p2', { queue: 'import', job: 'j4', token: 't4' }),
    ).toBeUndefined();
    await live?.release();
    expect(await locks.holder('space-live')).toBeUndefined();
  });

  it('lets an owner whose lock expired release nothing once another took it', async () => {
    const stale = await locks.tryAcquire('space-expired', 'p1');
    // Its ttl ran out (a long pause of its process): the key is gone, and another process takes it.
    await redis.del(locks.keyOf('space-expired'));
    const next = await locks.tryAcquire('space-expired', 'p2');
    expect(next).toBeDefined();
    await stale?.release();
    expect(await locks.holder('space-expired')).toMatch(/^p2:/);
    await next?.release();
    expect(await locks.holder('space-expired')).toBeUndefined();
  });

  it('releases once, however often it is asked, and never rejects', async () => {
    const held = await locks.tryAcquire('space-twice', 'p1');
    const first = held?.release();
    const again = held?.release();
    expect(again).toBe(first);
    await Promise.all([first, again]);
    const next = await locks.tryAcquire('space-twice', 'p2');
    await held?.release();
    expect(await locks.holder('space-twice')).toMatch(/^p2:/);
    await next?.release();
  });

  it('excludes readers of a space from one another, never a writer', async () => {
    const reader = await locks.tryAcquire('space-read', 'p1', undefined, 'read');
    expect(reader).toBeDefined();
    expect(await locks.tryAcquire('space-read', 'p2', undefined, 'read')).toBeUndefined();
    const writer = await locks.tryAcquire('space-read', 'p2');
    expect(writer).toBeDefined();
    // And a writer holds no reader back either.
    await reader?.release();
    const nextReader = await locks.tryAcquire('space-read', 'p3', undefined, 'read');
    expect(nextReader).toBeDefined();
    expect(await locks.tryAcquire('space-read', 'p3')).toBeUndefined();
    await Promise.all([writer?.release(), nextReader?.release()]);
  });

  it('takes a lock by one script call, loaded once and called by its hash', async () => {
    const monitor = await monitorRedis(redis);
    const commands: string[] = [];
    // MONITOR also lists what scripts call, with `lua` as their source: keep what the client sent.
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (source !== 'lua' && args.some((arg) => arg.includes('space-monitored')))
        commands.push(String(args[0]).toLowerCase());
    });
    try {
      const held = await locks.tryAcquire('space-monitored', 'p1');
      await held?.release();
      await locks.tryAcquire('space-monitored', 'p2').then((next) => next?.release());
      await locks.holder('space-monitored');
      // Take, release, take, release: one call each, by hash; then the read of holder(), to be
      // sure MONITOR has passed on every command before the list is read.
      await waitFor(() => commands.includes('get'), 'the read of the holder');
      expect(commands).toEqual(['evalsha', 'evalsha', 'evalsha', 'evalsha', 'get']);
    } finally {
      monitor.disconnect();
    }
  });
});
