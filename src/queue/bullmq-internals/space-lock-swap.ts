// The script that releases and takes docsync's space locks (src/queue/space-locks.ts), and the one
// place that knows how BullMQ names a job's keys, so that it can read a job run's BullMQ lock
// (lua/spaceLockSwap-n.lua).
import type { RedisClient } from '../../redis/redis-connections.js';
import type { ScriptCommand } from '../../redis/script-command.js';
import { bullmqScript } from './bullmq-scripts.js';

/**
 * Releases, then takes, in one call: the lock keys (releases first), then the count of releases,
 * the tokens in the same order, the ttl (ms), and `jobKeyPrefix` of the queues' prefix last.
 */
export function spaceLockSwap(redis: RedisClient): ScriptCommand {
  return bullmqScript(redis, 'spaceLockSwap');
}

/** What BullMQ puts before `<queue>:<job id>` in a job's keys, for queues under `prefix`. */
export function jobKeyPrefix(prefix: string): string {
  return `${prefix}:`;
}
