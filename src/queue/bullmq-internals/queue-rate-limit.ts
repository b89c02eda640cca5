// BullMQ's rate limit of a queue, lengthened: its `limiter` key set to what Queue.rateLimit stores,
// for at least a pause, never shortened (lua/pauseQueueAtLeast-1.lua). Workers with a limiter honour
// it (src/queue/job-runner.ts).
import type { Queue } from 'bullmq';
import type { RedisClient } from '../../redis/redis-connections.js';
import { bullmqScript } from './bullmq-scripts.js';

/** What Queue.rateLimit stores: no job counter of a limiter ever reaches it. */
const RATE_LIMITED = String(Number.MAX_SAFE_INTEGER);

/** Rate limits `queue` for at least `pauseMs` (a longer limit stays); the limit in force, in ms. */
export async function extendQueueRateLimit(
  redis: RedisClient,
  queue: Queue,
  pauseMs: number,
): Promise<number> {
  const pause = bullmqScript(redis, 'pauseQueueAtLeast');
  // BullMQ's key of the queue's rate limit, as Queue.rateLimit writes it.
  const key = queue.keys.limiter ?? `${queue.qualifiedName}:limiter`;
  const held = await pause(1, key, Math.max(1, Math.round(pauseMs)), RATE_LIMITED);
  return typeof held === 'number' ? held : pauseMs;
}
