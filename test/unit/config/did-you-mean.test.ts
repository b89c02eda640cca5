import { describe, expect, it } from 'vitest';
import { closestKey, editDistance } from '../../../src/config/closest-key.js';
import { configSchema } from '../../../src/config/config-schema.js';
import { knownKeysAt } from '../../../src/config/known-keys.js';

describe('closestKey', () => {
  it('finds the key one or two edits away, a swap of neighbours counting as one', () => {
    const known = ['enabled', 'approvals', 'resolvedComments', 'noBrokenLinks', 'blockSubject'];
    expect(closestKey('aprovals', known)).toBe('approvals');
    expect(closestKey('approvlas', known)).toBe('approvals');
    expect(closestKey('enable', known)).toBe('enabled');
    expect(closestKey('NoBrokenLinks', known)).toBe('noBrokenLinks');
    expect(closestKey('bracnh', ['repo', 'branch', 'dir'])).toBe('branch');
  });

  it('suggests nothing when no key is close, and allows one edit only in short keys', () => {
    expect(closestKey('telemetry', ['dataDir', 'service', 'redis'])).toBeUndefined();
    expect(closestKey('dri', ['dir'])).toBe('dir');
    expect(closestKey('tzz', ['tz'])).toBe('tz');
    expect(closestKey('xyz', ['tz'])).toBeUndefined();
  });

  it('measures the optimal string alignment distance', () => {
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

describe('knownKeysAt', () => {
  it("reads the keys of the configuration schema's shape at a key path", () => {
    expect(knownKeysAt(configSchema, [])).toContain('mappings');
    expect(knownKeysAt(configSchema, ['mappings', 0, 'merge'])).toEqual([
      'approvals',
      'blockSubject',
      'enabled',
      'noBrokenLinks',
      'resolvedComments',
    ]);
    expect(knownKeysAt(configSchema, ['service'])).toEqual(['baseUrl', 'rateLimit', 'timeout', 'token']);
    expect(knownKeysAt(configSchema, ['openapi', 2, 'source'])).toEqual(['file', 'mapping', 'path', 'root']);
  });

  it('knows nothing at a path the schema does not have', () => {
    expect(knownKeysAt(configSchema, ['nothing', 'here'])).toEqual([]);
    expect(knownKeysAt(configSchema, ['mappings', 'name'])).toEqual([]);
    expect(knownKeysAt(configSchema, ['dataDir'])).toEqual([]);
  });
});
