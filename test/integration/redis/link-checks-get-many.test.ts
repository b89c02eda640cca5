// The link checks of many targets of one space in one read (a change request poll's): the Redis
// store (one MGET) and the memory one answer as `get` answers each, in the order asked.
import { describe, expect, it } from 'vitest';
import type { LinkCheck, LinkCheckStore } from '../../../src/state/link-check-store.js';
import { MemoryLinkCheckStore } from '../../../src/state/memory-link-check-store.js';
import { RedisLinkCheckStore } from '../../../src/state/redis-link-check-store.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';

const check = (revision: string): LinkCheck => ({
  at: '2026-11-25T10:00:00.000Z',
  revision,
  broken: [{ pageId: 'pg_1', pageTitle: 'Intro', target: 'https://example.invalid/x' }],
});

const kinds: Array<[string, () => LinkCheckStore]> = [
  [
    'in Redis',
    () => {
      const prefix = uniquePrefix('links-many');
      return new RedisLinkCheckStore(testRedis(prefix), prefix);
    },
  ],
  ['in memory', () => new MemoryLinkCheckStore()],
];

describe.each(kinds)('link checks %s, many at once', (_, makeStore) => {
  it('answers each target as get does, in the order asked', async () => {
    const links = makeStore();
    await links.set('spc', 'cr_1', check('rev_1'));
    await links.set('spc', 'cr_3', check('rev_3'));
    await links.set('spc', undefined, check('rev_main'));
    await links.set('other', 'cr_2', check('rev_other'));
    const asked = ['cr_3', 'cr_2', undefined, 'cr_1', 'cr_3'];
    const many = await links.getMany('spc', asked);
    expect(many).toEqual([check('rev_3'), undefined, check('rev_main'), check('rev_1'), check('rev_3')]);
    expect(many).toEqual(await Promise.all(asked.map((cr) => links.get('spc', cr))));
    expect(await links.getMany('spc', [])).toEqual([]);
  });
});

describe('link checks in Redis, many at once', () => {
  it('reads an unreadable record as no check, like get, without failing the others', async () => {
    const prefix = uniquePrefix('links-many-bad');
    const redis = testRedis(prefix);
    const links = new RedisLinkCheckStore(redis, prefix);
    await links.set('spc', 'cr_1', check('rev_1'));
    await redis.set(links.keyOf('spc', 'cr_2'), 'not json');
    await redis.set(links.keyOf('spc', 'cr_3'), JSON.stringify({ revision: 'rev_3' }));
    expect(await links.getMany('spc', ['cr_1', 'cr_2', 'cr_3'])).toEqual([
      check('rev_1'),
      undefined,
      undefined,
    ]);
    expect(await links.get('spc', 'cr_2')).toBeUndefined();
  });
});
