import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { branchMappingSchema } from '../../../src/config/branch-mapping-schema.js';
import type { MappingConfig } from '../../../src/config/mapping-schema.js';
import { DerivedMappingRefresher } from '../../../src/versions/derived-mapping-refresher.js';
import { MemoryVersionStateStore } from '../../../src/versions/memory-version-state-store.js';

const handbook = branchMappingSchema.parse({
  name: 'handbook',
  git: { repo: './repo', branches: ['release/*'], poll: '5s' },
  spaces: { org: 'org_1' },
});

afterEach(() => {
  vi.useRealTimers();
});

describe('DerivedMappingRefresher', () => {
  it('takes in the branches another process reconciled, at each git.poll, and stops when closed', async () => {
    vi.useFakeTimers();
    const store = new MemoryVersionStateStore();
    const config = { mappings: [] as MappingConfig[], branchMappings: [handbook] };
    const refresher = new DerivedMappingRefresher(config, store, pino({ level: 'silent' }));
    refresher.start();
    await store.set('handbook', { branches: { 'release/2.0': { space: 'spc_2', created: true } } });
    expect(config.mappings).toEqual([]);

    await vi.advanceTimersByTimeAsync(5_000);
    expect(config.mappings.map((mapping) => [mapping.name, mapping.space])).toEqual([
      ['handbook@release/2.0', 'spc_2'],
    ]);

    refresher.close();
    await store.set('handbook', { branches: {} });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(config.mappings).toHaveLength(1);
  });
});
