// One contract for every store jobs see, run against the Redis versions (the daemon's) and the
// in-memory ones (`docsync once`, tests, benchmarks): both must answer alike.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { EVENTS_KEPT } from '../../../src/state/event-log.js';
import type { LinkCheck } from '../../../src/state/link-check-store.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { redisStores } from '../../../src/state/redis-stores.js';
import type { Stores } from '../../../src/state/stores.js';
import type { StoredVerdict } from '../../../src/state/verdict-store.js';
import { closeAfter } from '../../support/close-after.js';
import { redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';

const kinds: Array<[string, () => Stores]> = [
  [
    'in Redis',
    () => {
      const prefix = uniquePrefix('stores');
      return redisStores(testRedis(prefix), prefix);
    },
  ],
  ['in memory', () => memoryStores()],
];

const CHECK: LinkCheck = {
  at: '2026-11-21T10:00:00.000Z',
  revision: 'rev_1',
  broken: [
    {
      pageId: 'pg_1',
      pageTitle: 'Intro',
      pagePath: 'intro',
      target: 'https://example.invalid/x',
      // Where it is written in git: kept by every store.
      sourcePath: 'intro.md',
      file: 'docs/intro.md',
      line: 4,
      column: 7,
    },
  ],
  stats: { total: 12, broken: { total: 1 } },
};

function verdict(changeRequest: string, number: number, mergeable = true): StoredVerdict {
  return {
    changeRequest,
    number,
    subject: `change ${number}`,
    revision: `rev_${number}`,
    mergeable,
    reasons: mergeable ? [] : ['not approved'],
    at: '2026-11-21T10:00:00.000Z',
  };
}

describe.each(kinds)('stores %s', (_, makeStores) => {
  it('keeps the last link check per target, apart from other targets, and sums it up', async () => {
    const { links } = makeStores();
    expect(await links.get('spc', undefined)).toBeUndefined();
    expect(await links.summary('spc', 'cr_1')).toBeUndefined();
    await links.set('spc', 'cr_1', CHECK);
    await links.set('spc', undefined, { ...CHECK, revision: 'rev_main', broken: [], stats: undefined });
    expect(await links.get('spc', 'cr_1')).toEqual(CHECK);
    expect(await links.get('spc', 'cr_2')).toBeUndefined();
    expect(await links.get('other', 'cr_1')).toBeUndefined();
    expect(await links.summary('spc', 'cr_1')).toEqual({
      at: CHECK.at,
      revision: 'rev_1',
      broken: 1,
      total: 12,
      links: CHECK.broken,
    });
    expect(await links.summary('spc', undefined)).toEqual({
      at: CHECK.at,
      revision: 'rev_main',
      broken: 0,
      links: [],
    });
  });

  it('gives back a copy of a link check, not the record it keeps', async () => {
    const { links } = makeStores();
    const check = structuredClone(CHECK);
    await links.set('spc', 'cr_1', check);
    check.broken.length = 0;
    const read = await links.get('spc', 'cr_1');
    read?.broken.pop();
    expect((await links.get('spc', 'cr_1'))?.broken).toHaveLength(1);
  });

  it('replaces and sets the verdicts of a mapping, listed by change request number', async () => {
    const { verdicts } = makeStores();
    expect(await verdicts.list('docs')).toEqual([]);
    await verdicts.replace('docs', [verdict('cr_3', 3), verdict('cr_1', 1)]);
    await verdicts.set('docs', verdict('cr_2', 2, false));
    await verdicts.set('other', verdict('cr_9', 9));
    expect((await verdicts.list('docs')).map((item) => item.number)).toEqual([1, 2, 3]);
    await verdicts.set('docs', verdict('cr_1', 1, false));
    await verdicts.replace('docs', [verdict('cr_1', 1, false), verdict('cr_4', 4)]);
    expect(await verdicts.list('docs')).toEqual([verdict('cr_1', 1, false), verdict('cr_4', 4)]);
    await verdicts.replace('docs', []);
    expect(await verdicts.list('docs')).toEqual([]);
    expect(await verdicts.list('other')).toEqual([verdict('cr_9', 9)]);
  });

  it('lists verdicts a later poll found again as of that poll, and a merge verdict set between', async () => {
    const { verdicts } = makeStores();
    const at = (verdicts: StoredVerdict[], time: string) => verdicts.map((item) => ({ ...item, at: time }));
    await verdicts.replace('docs', [verdict('cr_1', 1), verdict('cr_2', 2)]);
    const later = at([verdict('cr_1', 1), verdict('cr_2', 2)], '2026-11-21T10:05:00.000Z');
    await verdicts.replace('docs', later);
    expect(await verdicts.list('docs')).toEqual(later);
    const merged = { ...verdict('cr_2', 2, false), at: '2026-11-21T10:06:00.000Z' };
    await verdicts.set('docs', merged);
    expect(await verdicts.list('docs')).toEqual([later[0], merged]);
    // The next poll finds what the one before it found: its verdicts, not the merge's, stand.
    const next = at([verdict('cr_1', 1), verdict('cr_2', 2)], '2026-11-21T10:10:00.000Z');
    await verdicts.replace('docs', next);
    expect(await verdicts.list('docs')).toEqual(next);
  });

  it('merges OpenAPI state patches, removes members patched to undefined, and sums it up', async () => {
    const { openapi } = makeStores();
    expect(await openapi.get('acme', 'pets')).toEqual({});
    expect(await openapi.summary('acme', 'pets')).toEqual({});
    const uploaded = {
      at: '2026-11-21T10:00:00.000Z',
      hash: 'h1',
      sourceHash: 's1',
      refFiles: 0,
      validators: { etag: '"e1"' },
      version: '1.0.0',
      operations: { 'GET /pets': 'f1' },
    };
    const lastRefresh = { at: '2026-11-21T10:00:00.000Z', result: 'uploaded', trigger: 'now' };
    expect(await openapi.update('acme', 'pets', { uploaded })).toEqual({ uploaded });
    const rejected = { hash: 'h2', code: 'SPEC_INVALID', at: '2026-11-21T11:00:00.000Z' };
    expect(await openapi.update('acme', 'pets', { lastRefresh, rejected })).toEqual({
      uploaded,
      lastRefresh,
      rejected,
    });
    expect(await openapi.update('acme', 'pets', { rejected: undefined })).toEqual({ uploaded, lastRefresh });
    expect(await openapi.get('acme', 'pets')).toEqual({ uploaded, lastRefresh });
    expect(await openapi.get('acme', 'other')).toEqual({});
    expect(await openapi.summary('acme', 'pets')).toEqual({
      uploaded: { at: uploaded.at, version: '1.0.0' },
      lastRefresh,
    });
  });

  it('keeps the newest events first, and never more than EVENTS_KEPT', async () => {
    const { events } = makeStores();
    expect(await events.recent()).toEqual([]);
    for (let i = 0; i < EVENTS_KEPT + 3; i += 1)
      await events.record({
        at: new Date(Date.UTC(2026, 10, 21, 0, 0, i)).toISOString(),
        queue: 'links',
        job: 'check-links',
        result: 'clean',
        summary: `check ${i}`,
        space: 'spc',
      });
    expect((await events.recent(2)).map((event) => event.summary)).toEqual([
      `check ${EVENTS_KEPT + 2}`,
      `check ${EVENTS_KEPT + 1}`,
    ]);
    expect(await events.recent(EVENTS_KEPT + 10)).toHaveLength(EVENTS_KEPT);
  });

  it('keeps mapping state apart per mapping, and removes a member patched to null', async () => {
    const { mappings } = makeStores();
    await mappings.update('docs', { lastImportedSha: 'a'.repeat(40), changeRequestId: 'cr_1' });
    await mappings.update('docs', { changeRequestId: null });
    expect(await mappings.get('docs')).toEqual({ lastImportedSha: 'a'.repeat(40) });
    expect(await mappings.get('other')).toEqual({});
  });
});

describe('verdicts in Redis, written by two processes', () => {
  it('keeps a merge verdict set just after a poll confirmed the ones before it, auto-pipelined', async () => {
    const prefix = uniquePrefix('stores');
    testRedis(prefix);
    // Jobs' state travels auto-pipelined (src/redis/redis-connections.ts).
    const client = new Redis(redisUrl(), { enableAutoPipelining: true, maxRetriesPerRequest: null });
    closeAfter(() => client.quit());
    const { verdicts } = redisStores(client, prefix);
    await verdicts.replace('docs', [verdict('cr_1', 1)]);
    // A poll confirms the same verdicts, and in the same turn a merge job sets one.
    const polled = verdicts.replace('docs', [{ ...verdict('cr_1', 1), at: '2026-11-21T10:05:00.000Z' }]);
    const merged = { ...verdict('cr_1', 1, false), at: '2026-11-21T10:06:00.000Z' };
    await Promise.all([polled, verdicts.set('docs', merged)]);
    expect(await verdicts.list('docs')).toEqual([merged]);
  });

  it('never confirms verdicts another process replaced since', async () => {
    const prefix = uniquePrefix('stores');
    const one = redisStores(testRedis(prefix), prefix).verdicts;
    const other = redisStores(testRedis(prefix), prefix).verdicts;
    await one.replace('docs', [verdict('cr_1', 1)]);
    await other.replace('docs', [verdict('cr_1', 1, false), verdict('cr_3', 3)]);
    // The same verdicts as `one` wrote last: it must write them whole, not only their time.
    const again = [{ ...verdict('cr_1', 1), at: '2026-11-21T10:05:00.000Z' }];
    await one.replace('docs', again);
    expect(await other.list('docs')).toEqual(again);
  });
});
