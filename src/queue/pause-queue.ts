// A queue paused for the service's rate limit, in every process that shares the Redis: BullMQ's
// rate limit of the queue set for the pause (as Queue.rateLimit sets it), which the workers' limiter
// honours (src/queue/job-runner.ts). Only ever lengthened: two jobs told 429 at once, one with a
// Retry-After of ten minutes and one of none (five seconds), pause it ten minutes. How BullMQ keeps
// the limit is src/queue/bullmq-internals/'s.
import type { Queue } from 'bullmq';
import type { RedisClient } from '../redis/redis-connections.js';
import { extendQueueRateLimit } from './bullmq-internals/queue-rate-limit.js';

/** Pauses `queue` for at least `pauseMs` (never shortens a longer pause); the pause in force, in ms. */
export function pauseQueueAtLeast(redis: RedisClient, queue: Queue, pauseMs: number): Promise<number> {
  return extendQueueRateLimit(redis, queue, pauseMs);
}
