import { describe, expect, it } from 'vitest';
import { policyFinding, versionFinding } from '../../../src/doctor/redis-checks.js';

describe('the Redis version finding', () => {
  it('passes Redis 6.2 and newer', () => {
    expect(versionFinding([{ version: '6.2.0' }])).toMatchObject({ status: 'ok' });
    expect(versionFinding([{ version: '7.4.1' }])).toMatchObject({
      status: 'ok',
      message: 'Redis 7.4.1 (docsync needs 6.2.0 or newer)',
    });
  });

  it('fails a Redis BullMQ runs on but docsync does not', () => {
    expect(versionFinding([{ version: '6.0.16' }])).toMatchObject({
      status: 'fail',
      code: 'REDIS_TOO_OLD',
      message:
        'Redis 6.0.16 is too old: BullMQ runs on it but recommends 6.2.0 or newer, and docsync needs 6.2.0',
      hint: 'upgrade Redis to 6.2.0 or newer (7.x recommended)',
    });
  });

  it('says that BullMQ itself refuses Redis older than 5', () => {
    expect(versionFinding([{ version: '4.0.9' }]).message).toBe(
      'Redis 4.0.9 is too old: BullMQ refuses Redis older than 5.0.0, and docsync needs 6.2.0 or newer',
    );
  });

  it('judges every node of a cluster', () => {
    expect(versionFinding([{ version: '7.2.0' }, { version: '6.0.1' }])).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/^Redis 6\.0\.1 is too old/),
    });
  });
});

describe('the maxmemory-policy finding', () => {
  it('passes noeviction', () => {
    expect(policyFinding([{ maxmemoryPolicy: 'noeviction' }])).toMatchObject({ status: 'ok' });
  });

  it('warns, with the fix, about a policy that evicts', () => {
    expect(policyFinding([{ maxmemoryPolicy: 'allkeys-lru' }])).toMatchObject({
      status: 'warn',
      code: 'REDIS_EVICTION_POLICY',
      message: expect.stringContaining('maxmemory-policy is allkeys-lru'),
      hint: expect.stringContaining('CONFIG SET maxmemory-policy noeviction'),
    });
  });

  it('warns when the server does not say', () => {
    expect(policyFinding([{ maxmemoryPolicy: undefined }])).toMatchObject({ status: 'warn' });
  });
});
