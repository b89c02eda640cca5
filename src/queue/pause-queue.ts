// A queue paused for the service's rate limit, in every process that shares the Redis: BullMQ's
// rate limit key of the queue set to its maximum for the pause (as Queue.rateLimit sets it), which
// the workers' limiter honours (src/queue/job-runner.ts). Only ever lengthened: two jobs told 429 at
// once, one with a Retry-After of ten minutes and one of none (five seconds), pause it ten minutes.
import type { Queue } from 'bullmq';
import type { RedisClient } from '../redis/redis-connections.js';
import { scriptCommand } from '../redis/script-command.js';

/** What Queue.rateLimit stores: no job counter of a limiter ever reaches it. */
const PAUSED = String(Number.MAX_SAFE_INTEGER);

/**
 * KEYS[1]: the queue's rate limit key. ARGV: the pause (ms), PAUSED. A pause that holds at least as
 * long is kept; anything else (none, a shorter one, the limiter's job counter) is replaced. Answers
 * the pause in force, in ms.
 */
const PAUSE_AT_LEAST = `
local pause = tonumber(ARGV[1])
local held = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if held >= tonumber(ARGV[2]) then
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl >= pause then return ttl end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', pause)
return pause
`;

/** Pauses `queue` for at least `pauseMs` (never shortens a longer pause); the pause in force, in ms. */
export async function pauseQueueAtLeast(redis: RedisClient, queue: Queue, pauseMs: number): Promise<number> {
  const pause = scriptCommand(redis, 'docsyncPauseQueueAtLeast', PAUSE_AT_LEAST);
  // BullMQ's key of the queue's rate limit, as Queue.rateLimit writes it.
  const key = queue.keys.limiter ?? `${queue.qualifiedName}:limiter`;
  const held = await pause(1, key, Math.max(1, Math.round(pauseMs)), PAUSED);
  return typeof held === 'number' ? held : pauseMs;
}
