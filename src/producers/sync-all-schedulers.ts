// Every job scheduler docsync keeps, in one call: what a start puts in Redis, and what
// redis-loss-watch.ts puts back when Redis comes back empty under a running docsync.
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../log/create-logger.js';
import type { Queues } from '../queue/queues.js';
import { syncOpenApiSchedulers } from './openapi-schedulers.js';
import { syncMappingSchedulers, syncVersionSchedulers } from './version-schedulers.js';

export type ScheduledConfig = Pick<Config, 'mappings' | 'branchMappings' | 'openapi'>;

/**
 * The polls of every mapping (derived ones included), the OpenAPI refreshes and the reconciles of
 * branches mappings: created or updated, and those no longer configured removed.
 */
export async function syncAllSchedulers(
  queues: Pick<Queues, 'get'>,
  config: ScheduledConfig,
  log: Logger,
): Promise<void> {
  await syncMappingSchedulers(queues, config.mappings, log);
  await syncOpenApiSchedulers(queues.get('openapi'), config.openapi, log);
  await syncVersionSchedulers(queues.get('maintain'), config.branchMappings, log);
}
