import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../../src/config/load-config.js';
import { DocsyncError } from '../../../src/errors/docsync-error.js';
import { LockLostError } from '../../../src/errors/lock-lost-error.js';
import {
  defaultJobOptions,
  isPermanent,
  RETRY_POLICY,
  rateLimitPauseMs,
} from '../../../src/queue/retry-policy.js';

describe('retry policy', () => {
  it('bounds attempts, backs off exponentially with jitter, and bounds kept history', () => {
    const { queues } = parseConfig('queues:\n  attempts: 3\n  backoff: 2s\n', 'c.yaml', {});
    expect(defaultJobOptions(queues)).toEqual({
      attempts: 3,
      backoff: { type: 'exponential', delay: 2000, jitter: RETRY_POLICY.backoffJitter },
      removeOnComplete: { count: 1000, age: 7 * 24 * 3600 },
      removeOnFail: { count: 5000, age: 30 * 24 * 3600 },
    });
  });

  it('tells permanent failures from passing ones', () => {
    expect(isPermanent(new DocsyncError('CONTENT_INVALID', 'bad'))).toBe(true);
    expect(isPermanent(new DocsyncError('API_NETWORK_ERROR', 'down', { retryable: true }))).toBe(false);
    expect(isPermanent(new LockLostError('lock:space:s1'))).toBe(false);
    expect(isPermanent(z.object({ a: z.string() }).safeParse({}).error)).toBe(true);
    expect(isPermanent(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(false);
    expect(isPermanent(Object.assign(new Error('no such file'), { code: 'ENOENT' }))).toBe(true);
    expect(isPermanent(Object.assign(new Error('permission denied'), { code: 'EACCES' }))).toBe(true);
    expect(isPermanent(new Error('unexpected'))).toBe(false);
  });
});

describe('rateLimitPauseMs', () => {
  it('pauses for a 429 as long as the service asked, or a default, and not for anything else', () => {
    expect(rateLimitPauseMs({ status: 429, retryAfterMs: 120_000 })).toBe(120_000);
    expect(rateLimitPauseMs({ status: 429 })).toBe(RETRY_POLICY.rateLimitPauseMs);
    expect(rateLimitPauseMs({ status: 503, retryAfterMs: 1000 })).toBeUndefined();
    expect(rateLimitPauseMs(new Error('x'))).toBeUndefined();
    // A Retry-After of a day (or a date far off) pauses every process's queue an hour at most.
    expect(rateLimitPauseMs({ status: 429, retryAfterMs: 86_400_000 })).toBe(
      RETRY_POLICY.maxRateLimitPauseMs,
    );
    expect(RETRY_POLICY.maxRateLimitPauseMs).toBe(3_600_000);
  });
});
