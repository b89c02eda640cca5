import { describe, expect, it } from 'vitest';
import { EVENTS_KEPT } from '../../../src/state/event-log.js';
import { RedisEventLog } from '../../../src/state/redis-event-log.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';

describe('RedisEventLog', () => {
  it('keeps the newest events, newest first, and never more than it is meant to', async () => {
    const prefix = uniquePrefix('events');
    const redis = testRedis(prefix);
    const log = new RedisEventLog(redis, prefix);
    for (let i = 0; i < EVENTS_KEPT + 5; i += 1)
      await log.record({
        at: new Date(Date.UTC(2026, 10, 21, 0, 0, i)).toISOString(),
        queue: 'maintain',
        job: 'merge-change-request',
        result: 'merged',
        summary: `merged change request #${i}`,
        mapping: 'docs',
      });
    expect(await redis.llen(`${prefix}:state:events`)).toBe(EVENTS_KEPT);
    const recent = await log.recent(3);
    expect(recent.map((event) => event.summary)).toEqual([
      `merged change request #${EVENTS_KEPT + 4}`,
      `merged change request #${EVENTS_KEPT + 3}`,
      `merged change request #${EVENTS_KEPT + 2}`,
    ]);
  });

  it('leaves out an entry that does not read back as an event', async () => {
    const prefix = uniquePrefix('events-bad');
    const redis = testRedis(prefix);
    const log = new RedisEventLog(redis, prefix);
    await log.record({ at: 'now', queue: 'links', job: 'check-links', result: 'clean', summary: 'ok' });
    await redis.lpush(`${prefix}:state:events`, 'not json', '{"summary":1}');
    expect(await log.recent()).toEqual([
      { at: 'now', queue: 'links', job: 'check-links', result: 'clean', summary: 'ok' },
    ]);
  });
});
