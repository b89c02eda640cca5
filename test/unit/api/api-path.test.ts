import { describe, expect, it } from 'vitest';
import { apiPath } from '../../../src/api/api-path.js';

describe('API paths', () => {
  it('percent-encodes each parameter as one segment', () => {
    expect(apiPath`/spaces/${'a/b?c=d#e'}/content`).toEqual({
      path: '/spaces/a%2Fb%3Fc%3Dd%23e/content',
      route: '/spaces/{}/content',
    });
  });

  it('keeps a parameter of dots from climbing the path', () => {
    expect(apiPath`/spaces/${'..'}/content`.path).toBe('/spaces/%2E%2E/content');
    expect(apiPath`/spaces/${'v1.2'}`.path).toBe('/spaces/v1.2');
  });

  it('takes numbers, such as change request numbers', () => {
    expect(apiPath`/spaces/s/change-requests/${12}`.path).toBe('/spaces/s/change-requests/12');
  });

  it('inserts a prefix built the same way as it is', () => {
    const prefix = apiPath`/spaces/${'s 1'}/comments`;
    expect(apiPath`${prefix}/${'c1'}/replies`).toEqual({
      path: '/spaces/s%201/comments/c1/replies',
      route: '/spaces/{}/comments/{}/replies',
    });
  });

  it('refuses an empty parameter, which would address another resource', () => {
    expect(() => apiPath`/spaces/${''}/content`).toThrow(TypeError);
  });
});
