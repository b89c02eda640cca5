import { describe, expect, it } from 'vitest';
import { MAX_TRACKED_CHANGE_REQUESTS, type MappingStateStore } from '../../../src/state/mapping-state.js';
import { MemoryMappingStateStore } from '../../../src/state/memory-mapping-state-store.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { carryOrigin } from '../../../src/upkeep/docsync-revision.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';

const S1 = '1'.repeat(40);

/** A clock one second further on every read, so that entries have an order. */
function ticking(): () => Date {
  let ms = Date.parse('2024-05-01T00:00:00Z');
  return () => {
    ms += 1000;
    return new Date(ms);
  };
}

/** Records that docsync's import into `changeRequest` made `revision` of space spc, for mapping docs. */
const recordImport = (store: MappingStateStore, revision: string, changeRequest: string) =>
  store.recordRevisionOrigin('spc', revision, { kind: 'import', mapping: 'docs', changeRequest });

const stores: Array<[string, () => MappingStateStore]> = [
  [
    'in Redis',
    () => {
      const prefix = uniquePrefix('tracked');
      return new RedisMappingStateStore(testRedis(prefix), prefix, ticking());
    },
  ],
  ['in memory', () => new MemoryMappingStateStore(ticking())],
];

describe.each(stores)('tracked change requests %s', (_, makeStore) => {
  it('tracks the change request an import names, and follows it through an update', async () => {
    const store = makeStore();
    await store.recordRevisionOrigin('spc', 'rev_import', {
      kind: 'import',
      mapping: 'docs',
      sha: S1,
      changeRequest: 'cr_1',
    });
    expect(await store.trackedChangeRequests('docs')).toEqual([
      { id: 'cr_1', revision: 'rev_import', sha: S1, at: expect.any(String) },
    ]);
    expect(
      await carryOrigin(store, 'spc', 'rev_import', 'rev_update', { kind: 'update', mapping: 'docs' }),
    ).toBe(true);
    expect(await store.revisionOrigin('spc', 'rev_update')).toEqual({
      kind: 'update',
      mapping: 'docs',
      sha: S1,
      changeRequest: 'cr_1',
    });
    expect(await store.trackedChangeRequests('docs')).toMatchObject([
      { id: 'cr_1', revision: 'rev_update', sha: S1 },
    ]);
    expect(await store.trackedChangeRequests('other')).toEqual([]);
  });

  it('does not track a merge, nor an origin that names no change request', async () => {
    const store = makeStore();
    await store.recordRevisionOrigin('spc', 'rev_m', {
      kind: 'merge',
      mapping: 'docs',
      changeRequest: 'cr_1',
    });
    await store.recordRevisionOrigin('spc', 'rev_i', { kind: 'import', mapping: 'docs', sha: S1 });
    expect(await store.trackedChangeRequests('docs')).toEqual([]);
    expect(await store.revisionOrigin('spc', 'rev_m')).toEqual({
      kind: 'merge',
      mapping: 'docs',
      changeRequest: 'cr_1',
    });
  });

  it('keeps a settled change request as settled, newest first, and an import tracks it again', async () => {
    const store = makeStore();
    await recordImport(store, 'rev_1', 'cr_1');
    await recordImport(store, 'rev_2', 'cr_2');
    await store.settleChangeRequest('docs', 'cr_1');
    expect(await store.trackedChangeRequests('docs')).toEqual([
      { id: 'cr_1', at: expect.any(String), settled: true },
      { id: 'cr_2', revision: 'rev_2', at: expect.any(String) },
    ]);
    // An archived change request reopened by a person and imported into again.
    await recordImport(store, 'rev_3', 'cr_1');
    expect((await store.trackedChangeRequests('docs'))[0]).toEqual({
      id: 'cr_1',
      revision: 'rev_3',
      at: expect.any(String),
    });
  });

  it(`keeps the newest ${MAX_TRACKED_CHANGE_REQUESTS} change requests of a mapping that never exports`, async () => {
    const store = makeStore();
    const count = MAX_TRACKED_CHANGE_REQUESTS + 3;
    for (let i = 1; i <= count; i += 1) await recordImport(store, `rev_${i}`, `cr_${i}`);
    const tracked = await store.trackedChangeRequests('docs');
    expect(tracked).toHaveLength(MAX_TRACKED_CHANGE_REQUESTS);
    expect(tracked[0]?.id).toBe(`cr_${count}`);
    expect(tracked.map((entry) => entry.id)).not.toContain('cr_3');
    expect(tracked.map((entry) => entry.id)).toContain('cr_4');
  });
});

describe('tracked change requests in Redis', () => {
  it('leaves out an entry that does not read back, and expires with the origins', async () => {
    const prefix = uniquePrefix('tracked');
    const redis = testRedis(prefix);
    const store = new RedisMappingStateStore(redis, prefix);
    await recordImport(store, 'rev_1', 'cr_1');
    await redis.hset(store.trackedKeyOf('docs'), 'cr_bad', '{"revision": 3}', 'cr_text', 'not json');
    expect((await store.trackedChangeRequests('docs')).map((entry) => entry.id)).toEqual(['cr_1']);
    expect(await redis.ttl(store.trackedKeyOf('docs'))).toBeGreaterThan(80 * 24 * 3600);
  });
});
