// The startup checks (the online checks of `docsync doctor`: the service, each space, each
// repository, each OpenAPI source) run once for replicas that start together: the first process to
// start with a configuration claims them in Redis for STARTUP_CHECKS_FRESH_SECONDS, and the others
// started meanwhile with the same configuration skip them. Without it, three replicas of a
// 1,000-mapping fleet read 3,000 spaces as they start, 25 minutes of a 120-a-minute budget. The claim
// is named by a digest of what the checks read (the service, the mappings, the OpenAPI sources), so
// that a changed configuration, a new token included, is checked again. A cache like the rest:
// Redis lost, or unanswering, the checks run.
import { createHash } from 'node:crypto';
import type { Config } from '../config/config-schema.js';
import type { RedisClient } from '../redis/redis-connections.js';

export const STARTUP_CHECKS_FRESH_SECONDS = 15 * 60;

/** Whether this process runs the startup checks: true unless another claimed them lately. */
export async function claimStartupChecks(
  redis: Pick<RedisClient, 'set'>,
  config: Pick<Config, 'redis' | 'service' | 'mappings' | 'openapi'>,
  at: Date,
): Promise<boolean> {
  const digest = createHash('sha256')
    .update(JSON.stringify([config.service, config.mappings, config.openapi]))
    .digest('hex')
    .slice(0, 16);
  const key = `${config.redis.prefix}:state:startup-checks:${digest}`;
  const answer = await redis.set(key, at.toISOString(), 'EX', STARTUP_CHECKS_FRESH_SECONDS, 'NX');
  return answer === 'OK';
}
