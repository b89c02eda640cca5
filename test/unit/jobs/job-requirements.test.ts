import { describe, expect, it } from 'vitest';
import { requireMapping } from '../../../jobs/job-requirements.js';
import type { Config } from '../../../src/config/config-schema.js';
import { mappingSchema } from '../../../src/config/mapping-schema.js';

const config = {
  mappings: [mappingSchema.parse({ name: 'a', space: 'spc_a', git: { repo: './repo', branch: 'main' } })],
} as unknown as Config;

describe('requireMapping', () => {
  it('gives the mapping a job was queued for', () => {
    expect(requireMapping({ config }, 'a').space).toBe('spc_a');
  });

  it('tells a mapping that left the configuration as MAPPING_UNKNOWN, naming it', () => {
    expect(() => requireMapping({ config }, 'gone')).toThrow(
      expect.objectContaining({ code: 'MAPPING_UNKNOWN', message: expect.stringContaining('gone') }),
    );
  });
});
