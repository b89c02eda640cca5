// The stores of the daemon: every one in Redis under the configured prefix, so that all processes
// sharing that prefix share what they remember.
import type { RedisClient } from '../redis/redis-connections.js';
import { RedisEventLog } from './redis-event-log.js';
import { RedisLinkCheckStore } from './redis-link-check-store.js';
import { RedisMappingStateStore } from './redis-mapping-state-store.js';
import { RedisOpenApiStateStore } from './redis-openapi-state-store.js';
import { RedisRepositoryHookStore } from './redis-repository-hook-store.js';
import { RedisVerdictStore } from './redis-verdict-store.js';
import type { Stores } from './stores.js';

export function redisStores(redis: RedisClient, prefix: string, now?: () => Date): Stores {
  return {
    mappings: new RedisMappingStateStore(redis, prefix, now),
    links: new RedisLinkCheckStore(redis, prefix),
    verdicts: new RedisVerdictStore(redis, prefix),
    openapi: new RedisOpenApiStateStore(redis, prefix),
    hooks: new RedisRepositoryHookStore(redis, prefix),
    events: new RedisEventLog(redis, prefix),
  };
}
