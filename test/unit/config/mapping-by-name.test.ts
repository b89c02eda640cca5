import { describe, expect, it } from 'vitest';
import { mappingByName } from '../../../src/config/mapping-by-name.js';
import { type MappingConfig, mappingSchema } from '../../../src/config/mapping-schema.js';

const mapping = (name: string, space: string): MappingConfig =>
  mappingSchema.parse({ name, space, git: { repo: './repo', branch: 'main' } });

describe('mappingByName', () => {
  it('finds the current mapping after the list changed in place, and none once it left', () => {
    const mappings = [mapping('a', 'spc_a'), mapping('b', 'spc_b'), mapping('c', 'spc_c')];
    expect(mappingByName(mappings, 'b')?.space).toBe('spc_b');
    // As a branches mapping's derived ones are replaced: the same list, other entries and places.
    mappings.splice(
      0,
      mappings.length,
      mapping('c', 'spc_c2'),
      mapping('b', 'spc_b2'),
      mapping('d', 'spc_d'),
    );
    expect(mappingByName(mappings, 'b')?.space).toBe('spc_b2');
    expect(mappingByName(mappings, 'c')?.space).toBe('spc_c2');
    expect(mappingByName(mappings, 'd')?.space).toBe('spc_d');
    mappings[1] = mapping('e', 'spc_e');
    expect(mappingByName(mappings, 'b')).toBeUndefined();
    expect(mappingByName(mappings, 'e')?.space).toBe('spc_e');
    mappings.push(mapping('b', 'spc_b3'));
    expect(mappingByName(mappings, 'b')?.space).toBe('spc_b3');
  });

  it('answers the first of a name, as a search from the start does', () => {
    expect(mappingByName([mapping('a', 'spc_1'), mapping('a', 'spc_2')], 'a')?.space).toBe('spc_1');
  });
});
