// The dependencies processors receive, made in one place for the daemon, tests and benchmarks.
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { Config } from '../config/config-schema.js';
import { MirrorRegistry } from '../import/mirror-registry.js';
import type { Logger } from '../log/create-logger.js';
import { DocsyncMetrics } from '../metrics/docsync-metrics.js';
import type { JobDeps } from '../queue/job-definition.js';
import type { Queues } from '../queue/queues.js';
import type { RedisClient } from '../redis/redis-connections.js';
import { RedisMappingStateStore } from '../state/redis-mapping-state-store.js';

export interface JobDepsInput {
  config: Config;
  /** The connection that waits through reconnects: state writes of a job must not fail fast. */
  redis: RedisClient;
  queues: Queues;
  log: Logger;
  api?: DocsApiClient | undefined;
  artifacts?: ArtifactStore | undefined;
  now?: () => Date;
  /** The daemon's, served at /metrics; tests and benchmarks that do not read them get their own. */
  metrics?: DocsyncMetrics;
}

export function createJobDeps(input: JobDepsInput): JobDeps {
  return {
    config: input.config,
    redis: input.redis,
    queues: input.queues,
    now: input.now ?? (() => new Date()),
    api: input.api,
    state: new RedisMappingStateStore(input.redis, input.config.redis.prefix),
    mirrorFor: new MirrorRegistry({
      dataDir: input.config.dataDir,
      log: input.log.child({ component: 'git' }),
    }).mirrorFor,
    artifacts: input.artifacts,
    dryRun: input.config.dryRun,
    metrics: input.metrics ?? new DocsyncMetrics(),
  };
}
