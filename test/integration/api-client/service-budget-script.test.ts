// The shared budget's arithmetic, run by Redis: how many tokens a window of `per` gives, the
// reserve low-priority requests leave, how long a refused take is told to wait, what /status reads,
// and both keys in one slot of a Redis Cluster.
import { setTimeout as delay } from 'node:timers/promises';
import { Cluster } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { reservedTokens } from '../../../src/api/request-priority.js';
import { budgetKeys, returnMarginMs, ServiceBudgetScript } from '../../../src/api/service-budget-script.js';
import { closeAfter } from '../../support/close-after.js';
import { startRedisCluster } from '../../support/redis-cluster.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';

describe('the service budget script', () => {
  it('gives `requests` tokens in a window of `per`, then says how long until the first comes back', async () => {
    const prefix = uniquePrefix('budget-script');
    const redis = testRedis(prefix);
    const limit = { requests: 5, perMs: 60_000 };
    const script = new ServiceBudgetScript(redis, prefix, limit);
    const answers = [];
    for (let n = 0; n < 6; n += 1) answers.push(await script.take(0, true));
    expect(answers.slice(0, 5)).toEqual(Array(5).fill({ taken: true }));
    const refused = answers[5];
    if (refused?.taken !== false) throw new Error('the sixth take was not refused');
    // The first token comes back `per` and the margin after it was taken: moments ago.
    const back = limit.perMs + returnMarginMs(limit.perMs);
    expect(refused.waitMs).toBeLessThanOrEqual(back);
    expect(refused.waitMs).toBeGreaterThan(back - 5_000);
    expect(await script.peek()).toMatchObject({ taken: 5, waits: 1 });
  });

  it('hands a token back once its wait is over, and not before', async () => {
    const prefix = uniquePrefix('budget-back');
    const redis = testRedis(prefix);
    const script = new ServiceBudgetScript(redis, prefix, { requests: 2, perMs: 1_000 });
    expect(await script.take(0, true)).toEqual({ taken: true });
    expect(await script.take(0, true)).toEqual({ taken: true });
    const refused = await script.take(0, true);
    if (refused.taken) throw new Error('the third take was not refused');
    const again = await script.take(0, false);
    if (again.taken) throw new Error('a token came back early');
    expect(again.waitMs).toBeLessThanOrEqual(refused.waitMs);
    // Asked again by the same call: still one wait.
    expect((await script.peek()).waits).toBe(1);
    await delay(again.waitMs);
    expect(await script.take(0, false)).toEqual({ taken: true });
  });

  it('keeps a quarter of the bucket for high-priority requests', async () => {
    const prefix = uniquePrefix('budget-reserve');
    const redis = testRedis(prefix);
    const limit = { requests: 8, perMs: 60_000 };
    const script = new ServiceBudgetScript(redis, prefix, limit);
    const low = reservedTokens('low', limit.requests);
    expect(low).toBe(2);
    for (let n = 0; n < 6; n += 1) expect(await script.take(low, true)).toEqual({ taken: true });
    expect((await script.take(low, true)).taken).toBe(false);
    expect(await script.take(0, true)).toEqual({ taken: true });
    expect(await script.take(0, true)).toEqual({ taken: true });
    expect((await script.take(0, true)).taken).toBe(false);
    expect(await script.peek()).toMatchObject({ taken: 8, waits: 2 });
  });

  it('never gives more than `requests` to takers racing on several connections', async () => {
    const prefix = uniquePrefix('budget-race');
    const clients = [testRedis(prefix), testRedis(prefix), testRedis(prefix)];
    const limit = { requests: 20, perMs: 60_000 };
    const answers = await Promise.all(
      Array.from({ length: 90 }, (_, n) =>
        new ServiceBudgetScript(clients[n % 3] as (typeof clients)[number], prefix, limit).take(0, true),
      ),
    );
    expect(answers.filter((answer) => answer.taken)).toHaveLength(20);
  });

  it('lets its keys expire once the budget is idle', async () => {
    const prefix = uniquePrefix('budget-ttl');
    const redis = testRedis(prefix);
    const limit = { requests: 1, perMs: 1_000 };
    const script = new ServiceBudgetScript(redis, prefix, limit);
    await script.take(0, true);
    await script.take(0, true);
    const [taken, waits] = budgetKeys(prefix);
    expect(await redis.pttl(taken)).toBeGreaterThan(0);
    expect(await redis.pttl(taken)).toBeLessThanOrEqual(limit.perMs + returnMarginMs(limit.perMs) + 1_000);
    expect(await redis.pttl(waits)).toBeGreaterThan(0);
    expect(await redis.pttl(waits)).toBeLessThanOrEqual(2 * limit.perMs);
  });

  it('runs on a Redis Cluster whether or not the prefix carries a hash tag', async () => {
    const cluster = await startRedisCluster();
    const client = new Cluster(
      cluster.nodes.map((node) => ({ host: '127.0.0.1', port: node.port })),
      { redisOptions: { maxRetriesPerRequest: 1 } },
    );
    closeAfter(() => client.quit());
    for (const prefix of ['docsync', '{docsync}', 'doc{sync']) {
      const script = new ServiceBudgetScript(client, prefix, { requests: 1, perMs: 60_000 });
      expect(await script.take(0, true)).toEqual({ taken: true });
      expect((await script.take(0, true)).taken).toBe(false);
      expect(await script.peek()).toMatchObject({ taken: 1, waits: 1 });
    }
  });
});
