import { describe, expect, it } from 'vitest';
import { isPublicPath } from '../../../src/http/public-paths.js';

describe('isPublicPath', () => {
  it('opens the liveness probe, the push webhook and artifact addresses', () => {
    for (const url of [
      '/healthz',
      '/hooks/git',
      '/hooks/git?x=1',
      '/artifacts/abcdefghijklmnopqrstuvwx',
      '/artifacts/abcdefghijklmnopqrstuvwx?expires=1&signature=ab',
    ])
      expect(isPublicPath(url), url).toBe(true);
  });

  it('keeps everything else behind the token, including tricks on the artifact prefix', () => {
    for (const url of [
      '/status',
      '/metrics',
      '/readyz',
      '/healthz/',
      '/hooks/git/x',
      '/artifacts/',
      '/artifacts/abcdefghijklmnopqrstuvwx/../../status',
      '/artifacts/..%2Fstatus',
      '/artifacts/abcdefghijklmnopqrstuvwx/extra',
      '//artifacts/abcdefghijklmnopqrstuvwx',
      '/status?/artifacts/abcdefghijklmnopqrstuvwx',
    ])
      expect(isPublicPath(url), url).toBe(false);
  });
});
