import { describe, expect, it } from 'vitest';
import { checkBranch, checkSha, gitPath, objectName, pathspec } from '../../../src/git/revision-names.js';

describe('revision names', () => {
  it('accepts commit ids and refuses anything else', () => {
    expect(checkSha('ABCDEF1234567')).toBe('abcdef1234567');
    for (const bad of ['', '-x', 'abc', 'HEAD', `${'a'.repeat(40)}\n`, 'main', `${'a'.repeat(40)}..b`]) {
      expect(() => checkSha(bad)).toThrow(expect.objectContaining({ code: 'GIT_INVALID_INPUT' }));
    }
  });

  it('accepts branch names git accepts and refuses options and other syntax', () => {
    for (const good of ['main', 'release/2.0', 'docs-v1', 'feature/a_b'])
      expect(checkBranch(good)).toBe(good);
    for (const bad of [
      '',
      '-f',
      'a..b',
      'a b',
      'x:y',
      'main@{1}',
      'a~1',
      'a^',
      'a/',
      '/a',
      'a.lock',
      'a//b',
      '@',
      'a\nb',
    ]) {
      expect(() => checkBranch(bad), bad).toThrow(expect.objectContaining({ code: 'GIT_INVALID_INPUT' }));
    }
  });

  it('normalises folder paths and names objects below a commit', () => {
    expect(gitPath('.')).toBe('');
    expect(gitPath('./docs//guides/')).toBe('docs/guides');
    expect(() => gitPath('docs/../..')).toThrow(expect.objectContaining({ code: 'GIT_INVALID_INPUT' }));
    expect(() => gitPath('docs\nHEAD')).toThrow(expect.objectContaining({ code: 'GIT_INVALID_INPUT' }));
    expect(objectName('abc1234', '')).toBe('abc1234^{tree}');
    expect(objectName('abc1234', 'docs')).toBe('abc1234:docs');
    expect(pathspec('')).toBe('.');
    expect(pathspec('docs')).toBe('docs');
  });
});
