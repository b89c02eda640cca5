import { describe, expect, it } from 'vitest';
import {
  API_RETRY_POLICY,
  isRetryableStatus,
  planRetry,
  retryDelayMs,
} from '../../../src/api/api-retry-policy.js';
import { parseRetryAfter } from '../../../src/api/parse-retry-after.js';

const transient = { retryable: true, retryAfterMs: undefined, systemCode: undefined };

describe('the API retry policy', () => {
  it('retries idempotent methods and the transient statuses only', () => {
    expect(API_RETRY_POLICY.idempotentMethods).toEqual(['GET', 'HEAD', 'PUT', 'DELETE']);
    expect([408, 429, 500, 502, 503, 504].every((status) => isRetryableStatus(status))).toBe(true);
    expect([400, 401, 403, 404, 409, 410, 422, 501].some((status) => isRetryableStatus(status))).toBe(false);
  });

  it('backs off exponentially up to the cap', () => {
    const noJitter = () => 0;
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => retryDelayMs(attempt, transient, noJitter));
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('takes at most the jitter share of a delay away', () => {
    expect(retryDelayMs(3, transient, () => 0.999999)).toBe(500);
    expect(retryDelayMs(3, transient, () => 0.5)).toBe(750);
    // A random source out of range cannot push the delay outside [50%, 100%].
    expect(retryDelayMs(3, transient, () => 7)).toBe(500);
    expect(retryDelayMs(3, transient, () => Number.NaN)).toBe(1000);
  });

  it('honours the service’s Retry-After exactly', () => {
    expect(retryDelayMs(1, { retryAfterMs: 2000 }, () => 0.5)).toBe(2000);
    expect(retryDelayMs(4, { retryAfterMs: 0 }, () => 0.5)).toBe(0);
  });

  it('plans a retry only while attempts remain', () => {
    expect(planRetry('GET', transient, 1, () => 0)).toBe(250);
    expect(planRetry('GET', transient, API_RETRY_POLICY.maxAttempts, () => 0)).toBeUndefined();
  });

  it('never retries a final error', () => {
    expect(planRetry('GET', { ...transient, retryable: false }, 1, () => 0)).toBeUndefined();
  });

  it('retries POST and PATCH only when the request never left', () => {
    expect(planRetry('POST', transient, 1, () => 0)).toBeUndefined();
    expect(planRetry('patch', transient, 1, () => 0)).toBeUndefined();
    expect(planRetry('POST', { ...transient, systemCode: 'ECONNREFUSED' }, 1, () => 0)).toBe(250);
    expect(planRetry('POST', { ...transient, systemCode: 'UND_ERR_SOCKET' }, 1, () => 0)).toBeUndefined();
  });

  it('retries any method the service refused with a 429, never one it may have acted on', () => {
    expect(planRetry('POST', { ...transient, status: 429, retryAfterMs: 1000 }, 1, () => 0)).toBe(1000);
    expect(planRetry('PATCH', { ...transient, status: 429 }, 1, () => 0)).toBe(250);
    expect(planRetry('POST', { ...transient, status: 503 }, 1, () => 0)).toBeUndefined();
  });

  it('leaves a pause longer than the limit to the queue', () => {
    const limit = API_RETRY_POLICY.maxRetryAfterMs;
    expect(planRetry('GET', { ...transient, retryAfterMs: limit }, 1, () => 0)).toBe(limit);
    expect(planRetry('GET', { ...transient, retryAfterMs: limit + 1 }, 1, () => 0)).toBeUndefined();
  });

  it('follows overrides of the table', () => {
    const policy = {
      ...API_RETRY_POLICY,
      maxAttempts: 2,
      baseDelayMs: 10,
      idempotentMethods: ['GET', 'POST'],
    };
    expect(planRetry('POST', transient, 1, () => 0, policy)).toBe(10);
    expect(planRetry('POST', transient, 2, () => 0, policy)).toBeUndefined();
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date, and a date in the past as no wait', () => {
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 01 Jun 2025 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    for (const value of [undefined, '', '1.5', '-3', 'soon', 'in 5 minutes'])
      expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});
