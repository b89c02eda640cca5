// A queue paused for the service's rate limit, on a real Redis: BullMQ's workers see the pause, and
// a second 429 never shortens a longer pause (one with a Retry-After of ten minutes and one with
// none, five seconds, at once), while a longer one lengthens it.
import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { pauseQueueAtLeast } from '../../../src/queue/pause-queue.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';

const prefix = uniquePrefix('pause-queue');
const redis = testRedis(prefix);
const queue = new Queue('maintain', { connection: redis, prefix });
afterAll(() => queue.close());

/** The pause BullMQ's workers honour now (their limiter's max is never reached by jobs). */
const pausedFor = () => queue.getRateLimitTtl(Number.MAX_SAFE_INTEGER);

describe('a queue paused for a rate limit', () => {
  it('pauses for the longest pause asked, never shortened by a shorter one', async () => {
    expect(await pausedFor()).toBeLessThanOrEqual(0);
    expect(await pauseQueueAtLeast(redis, queue, 600_000)).toBe(600_000);
    expect(await pausedFor()).toBeGreaterThan(599_000);
    // A 429 without Retry-After meanwhile: the ten minutes hold.
    expect(await pauseQueueAtLeast(redis, queue, 5000)).toBeGreaterThan(599_000);
    expect(await pausedFor()).toBeGreaterThan(599_000);
    // A longer one lengthens it.
    expect(await pauseQueueAtLeast(redis, queue, 900_000)).toBe(900_000);
    expect(await pausedFor()).toBeGreaterThan(899_000);
  });

  it("replaces the limiter's count of jobs with the pause, however short", async () => {
    const other = new Queue('links', { connection: redis, prefix });
    try {
      // What a worker's limiter leaves: a count of the jobs started this second.
      await redis.set(other.keys.limiter ?? '', '3', 'PX', 1000);
      expect(await pauseQueueAtLeast(redis, other, 500)).toBe(500);
      expect(await other.getRateLimitTtl(Number.MAX_SAFE_INTEGER)).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });
});
