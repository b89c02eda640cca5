// Failures in a row, per job of a mapping, in both mapping state stores: the Redis one (a script,
// so that jobs failing at once in several processes all count) and the in-memory one.
import { describe, expect, it } from 'vitest';
import type { Failure, MappingStateStore } from '../../../src/state/mapping-state.js';
import { MemoryMappingStateStore } from '../../../src/state/memory-mapping-state-store.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';

const kinds: Array<[string, () => MappingStateStore]> = [
  [
    'in Redis',
    () => {
      const prefix = uniquePrefix('failure-runs');
      return new RedisMappingStateStore(testRedis(prefix), prefix);
    },
  ],
  ['in memory', () => new MemoryMappingStateStore()],
];

const failure = (minute: number, code = 'API_HTTP_ERROR'): Failure => ({
  at: `2026-11-21T10:0${minute}:00.000Z`,
  code,
  message: `failed at minute ${minute}`,
  hint: 'check service.token',
});

describe.each(kinds)('failures in a row %s', (_, makeStore) => {
  it('counts each job apart, keeps when the run started, and makes the newest failure the lastError', async () => {
    const store = makeStore();
    await store.update('docs', { lastImportedSha: 'abc' });
    await store.recordFailure('docs', 'poll-change-requests', failure(1));
    await store.recordFailure('docs', 'poll-change-requests', failure(2));
    await store.recordFailure('docs', 'import-content', failure(3, 'GIT_AUTH'));
    await store.recordFailure('docs', 'poll-change-requests', failure(4));
    const state = await store.get('docs');
    expect(state.failures).toEqual({
      'poll-change-requests': { count: 3, since: failure(1).at, last: failure(4) },
      'import-content': { count: 1, since: failure(3).at, last: failure(3, 'GIT_AUTH') },
    });
    expect(state.lastError).toEqual(failure(4));
    expect(state.lastImportedSha).toBe('abc');
    expect((await store.get('other')).failures).toBeUndefined();
  });

  it("ends a job's run with its success; the last one takes lastError with it", async () => {
    const store = makeStore();
    await store.recordFailure('docs', 'poll-git', failure(1));
    await store.recordFailure('docs', 'poll-space', failure(2));
    await store.recordSuccess('docs', 'poll-git');
    expect(await store.get('docs')).toEqual({
      failures: { 'poll-space': { count: 1, since: failure(2).at, last: failure(2) } },
      lastError: failure(2),
    });
    await store.recordSuccess('docs', 'poll-space');
    expect(await store.get('docs')).toEqual({});
    await store.recordFailure('docs', 'poll-space', failure(5));
    expect((await store.get('docs')).failures).toEqual({
      'poll-space': { count: 1, since: failure(5).at, last: failure(5) },
    });
  });

  it('leaves a mapping that never failed as it was on a success', async () => {
    const store = makeStore();
    await store.recordSuccess('docs', 'poll-git');
    expect(await store.get('docs')).toEqual({});
    await store.update('docs', { lastError: failure(1) });
    await store.recordSuccess('docs', 'poll-git');
    expect((await store.get('docs')).lastError).toEqual(failure(1));
  });

  it('counts every failure of jobs failing at the same moment', async () => {
    const store = makeStore();
    await Promise.all(Array.from({ length: 25 }, () => store.recordFailure('docs', 'poll-git', failure(1))));
    expect((await store.get('docs')).failures?.['poll-git']?.count).toBe(25);
  });
});
