// What polls and merges read of the link checks of many targets of one space at once: the revision
// each last check saw and how many links it found broken, in the order asked, from the Redis store
// (one MGET of the short records kept beside the records) and the memory one alike.
import { describe, expect, it } from 'vitest';
import type { LinkCheck, LinkCheckStore } from '../../../src/state/link-check-store.js';
import { MemoryLinkCheckStore } from '../../../src/state/memory-link-check-store.js';
import { RedisLinkCheckStore } from '../../../src/state/redis-link-check-store.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';

const link = (n: number) => ({
  pageId: `pg_${n}`,
  pageTitle: `Page ${n}`,
  target: `https://example.invalid/${n}`,
});
const check = (revision: string, broken = 1): LinkCheck => ({
  at: '2026-11-25T10:00:00.000Z',
  revision,
  broken: Array.from({ length: broken }, (_, n) => link(n)),
});

const kinds: Array<[string, () => LinkCheckStore]> = [
  [
    'in Redis',
    () => {
      const prefix = uniquePrefix('links-checked');
      return new RedisLinkCheckStore(testRedis(prefix), prefix);
    },
  ],
  ['in memory', () => new MemoryLinkCheckStore()],
];

describe.each(kinds)('link checks %s, many at once', (_, makeStore) => {
  it('answers the revision and broken link count of each target, in the order asked', async () => {
    const links = makeStore();
    await links.set('spc', 'cr_1', check('rev_1', 3));
    await links.set('spc', 'cr_3', check('rev_3', 0));
    await links.set('spc', undefined, check('rev_main'));
    await links.set('other', 'cr_2', check('rev_other'));
    const asked = ['cr_3', 'cr_2', undefined, 'cr_1', 'cr_3'];
    expect(await links.checkedRevisions('spc', asked)).toEqual([
      { revision: 'rev_3', broken: 0 },
      undefined,
      { revision: 'rev_main', broken: 1 },
      { revision: 'rev_1', broken: 3 },
      { revision: 'rev_3', broken: 0 },
    ]);
    expect(await links.checkedRevisions('spc', [])).toEqual([]);
    // A new check of a target replaces what is read of it.
    await links.set('spc', 'cr_1', check('rev_1b', 0));
    expect(await links.checkedRevisions('spc', ['cr_1'])).toEqual([{ revision: 'rev_1b', broken: 0 }]);
  });
});

describe('link checks in Redis, many at once', () => {
  it('reads a record an older docsync kept without its short one, and an unreadable one as no check', async () => {
    const prefix = uniquePrefix('links-checked-old');
    const redis = testRedis(prefix);
    const links = new RedisLinkCheckStore(redis, prefix);
    await links.set('spc', 'cr_1', check('rev_1'));
    // As a docsync before the short records wrote them: the record alone.
    await redis.set(links.keyOf('spc', 'cr_old'), JSON.stringify(check('rev_old', 4)));
    await redis.set(links.keyOf('spc', 'cr_2'), 'not json');
    await redis.set(links.keyOf('spc', 'cr_3'), JSON.stringify({ revision: 'rev_3' }));
    await redis.set(links.checkedKeyOf('spc', 'cr_4'), '{"revision":7}');
    expect(await links.checkedRevisions('spc', ['cr_1', 'cr_old', 'cr_2', 'cr_3', 'cr_4'])).toEqual([
      { revision: 'rev_1', broken: 1 },
      { revision: 'rev_old', broken: 4 },
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('keeps the short record as long as the record, both renewed by each check', async () => {
    const prefix = uniquePrefix('links-checked-ttl');
    const redis = testRedis(prefix);
    const links = new RedisLinkCheckStore(redis, prefix);
    await links.set('spc', 'cr_1', check('rev_1'));
    const [record, short] = await Promise.all([
      redis.ttl(links.keyOf('spc', 'cr_1')),
      redis.ttl(links.checkedKeyOf('spc', 'cr_1')),
    ]);
    expect(record).toBeGreaterThan(29 * 24 * 3600);
    expect(Math.abs(record - short)).toBeLessThanOrEqual(1);
  });
});
