import { describe, expect, it } from 'vitest';
import { isAtLeast, parseInfo } from '../../../src/redis/check-redis-server.js';

describe('Redis server facts', () => {
  it('reads INFO sections', () => {
    const info = parseInfo(
      '# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\n\r\n# Memory\r\nmaxmemory_policy:allkeys-lru\r\n',
    );
    expect(info.get('redis_version')).toBe('7.0.15');
    expect(info.get('maxmemory_policy')).toBe('allkeys-lru');
  });

  it('compares versions part by part', () => {
    const min = [6, 2, 0];
    expect(['6.2.0', '6.2.14', '7.0.15', '10.0.0'].map((v) => isAtLeast(v, min))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['6.0.20', '5.0.14', '6.1.9', 'garbage'].map((v) => isAtLeast(v, min))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
