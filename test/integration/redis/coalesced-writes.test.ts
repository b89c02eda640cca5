// docsync's Redis sockets (src/redis/prepare-redis-socket.ts) hold back the writes of one tick and
// send them together at its end, each command still answered on its own and in order, through a
// transaction, a queued start and a reconnect. The client is made as docsync makes a standalone one.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { redisClientPlan } from '../../../src/redis/redis-client-plan.js';
import { closeAfter } from '../../support/close-after.js';
import { redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

function client(): Redis {
  const plan = redisClientPlan({ url: redisUrl() }, { maxRetriesPerRequest: null });
  if (plan.kind !== 'standalone') throw new Error('a URL is one server');
  const redis = new Redis(plan.url, plan.options);
  closeAfter(() => redis.quit());
  return redis;
}

/** A connected client and a key of a prefix of its own, removed after the test. */
async function connected(label: string): Promise<{ redis: Redis; key: string }> {
  const prefix = uniquePrefix(label);
  testRedis(prefix);
  const redis = client();
  await redis.ping();
  return { redis, key: `${prefix}:key` };
}

const nextTick = () => new Promise<void>((resolve) => process.nextTick(resolve));

describe("docsync's Redis socket", () => {
  it('sends the commands of one tick in one write at its end, each answered in order', async () => {
    const { redis, key } = await connected('coalesce');
    const answers = Array.from({ length: 200 }, () => redis.incr(key));
    // Nothing has left yet: the socket holds the tick's commands until the tick is over.
    expect(redis.stream.writableCorked).toBe(1);
    expect(redis.stream.writableLength).toBeGreaterThan(0);
    await nextTick();
    expect(redis.stream.writableCorked).toBe(0);
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    // A later tick starts a write of its own.
    const later = redis.get(key);
    expect(redis.stream.writableCorked).toBe(1);
    expect(await later).toBe('200');
  });

  it('keeps a transaction whole beside the commands sent around it in the same tick', async () => {
    const { redis, key } = await connected('coalesce-multi');
    const before = redis.rpush(key, 'a');
    const transaction = redis.multi().rpush(key, 'b').lrange(key, 0, -1).exec();
    const after = redis.rpush(key, 'c');
    expect(await before).toBe(1);
    expect(await transaction).toEqual([
      [null, 2],
      [null, ['a', 'b']],
    ]);
    expect(await after).toBe(3);
    expect(await redis.lrange(key, 0, -1)).toEqual(['a', 'b', 'c']);
  });

  it('sends a command held back when its socket dies again on the new connection, once', async () => {
    const { redis, key } = await connected('coalesce-dies');
    const held = [redis.incr(key), redis.incr(key)];
    expect(redis.stream.writableCorked).toBe(1);
    // The socket dies before the tick ends: nothing held back reached Redis.
    redis.stream.destroy();
    expect(await Promise.all(held)).toEqual([1, 2]);
    expect(await redis.get(key)).toBe('2');
  });

  it('answers commands sent before it is connected, and after its connection was killed', async () => {
    const prefix = uniquePrefix('coalesce-reconnect');
    const admin = testRedis(prefix);
    const redis = client();
    const key = `${prefix}:count`;
    // Sent at once: ioredis queues them until the connection is ready.
    expect(await Promise.all([redis.incr(key), redis.incr(key)])).toEqual([1, 2]);
    const id = await redis.client('ID');
    await admin.client('KILL', 'ID', String(id));
    await waitFor(async () => (await redis.client('ID')) !== id, 'a new connection');
    expect(await Promise.all([redis.incr(key), redis.incr(key)])).toEqual([3, 4]);
  });
});
