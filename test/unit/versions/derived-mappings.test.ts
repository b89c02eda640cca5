import { describe, expect, it } from 'vitest';
import { branchMappingSchema } from '../../../src/config/branch-mapping-schema.js';
import { mappingSchema } from '../../../src/config/mapping-schema.js';
import {
  branchMappingOf,
  derivedMappings,
  replaceDerivedMappings,
} from '../../../src/versions/derived-mappings.js';

const handbook = branchMappingSchema.parse({
  name: 'handbook',
  direction: 'both',
  git: { repo: './repo', branches: ['main', 'release/*'], dir: 'docs' },
  spaces: { org: 'org_1' },
  merge: { enabled: true },
});
const guide = mappingSchema.parse({
  name: 'guide',
  space: 'spc_g',
  git: { repo: './other', branch: 'main' },
});

describe('derived mappings', () => {
  it('are one single-branch mapping per live branch, with the settings of the branches mapping', () => {
    const derived = derivedMappings(handbook, {
      branches: {
        main: { space: 'spc_1', created: true },
        'release/1.0': { space: 'spc_0', created: true, archived: true },
        'release/2.0': { space: 'spc_2', created: false, siteSpace: 'ss_2' },
      },
    });
    expect(derived.map((mapping) => [mapping.name, mapping.space, mapping.git.branch])).toEqual([
      ['handbook@main', 'spc_1', 'main'],
      ['handbook@release/2.0', 'spc_2', 'release/2.0'],
    ]);
    expect(derived[0]).toMatchObject({ direction: 'both', git: { repo: './repo', dir: 'docs' } });
    expect(derived[0]?.merge.enabled).toBe(true);
    expect(branchMappingOf('handbook@release/2.0')).toBe('handbook');
    expect(branchMappingOf('guide')).toBeUndefined();
  });

  it('replace those of their branches mapping in place, leaving the others, and say what changed', () => {
    const mappings = [guide];
    const list = mappings;
    const first = derivedMappings(handbook, { branches: { main: { space: 'spc_1', created: true } } });
    expect(replaceDerivedMappings(mappings, handbook, first)).toMatchObject({
      added: first,
      removed: [],
      changed: true,
    });
    expect(list.map((mapping) => mapping.name)).toEqual(['guide', 'handbook@main']);
    expect(replaceDerivedMappings(mappings, handbook, first).changed).toBe(false);
    const next = derivedMappings(handbook, {
      branches: { 'release/2.0': { space: 'spc_2', created: true } },
    });
    const { added, removed } = replaceDerivedMappings(mappings, handbook, next);
    expect([added.map((m) => m.name), removed.map((m) => m.name)]).toEqual([
      ['handbook@release/2.0'],
      ['handbook@main'],
    ]);
    expect(list.map((mapping) => mapping.name)).toEqual(['guide', 'handbook@release/2.0']);
  });
});
