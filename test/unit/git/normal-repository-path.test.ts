// A repository path in one spelling: how a spec's `source.root` and `--root` are compared with its path.
import { describe, expect, it } from 'vitest';
import { normalRepositoryPath } from '../../../src/git/normal-repository-path.js';

describe('normalRepositoryPath', () => {
  it('spells one folder one way, whatever the dots and slashes', () => {
    for (const path of ['api', './api', 'api/', '/api', 'api/specs/..', 'api//']) {
      expect(normalRepositoryPath(path)).toBe('api');
    }
  });

  it("gives '' for the repository's root and keeps a path that leaves it", () => {
    expect(normalRepositoryPath('.')).toBe('');
    expect(normalRepositoryPath('/')).toBe('');
    expect(normalRepositoryPath('api/../..')).toBe('..');
    expect(normalRepositoryPath('../other/spec.yaml')).toBe('../other/spec.yaml');
  });
});
