// The services jobs are handed (jobs/job-services.ts), made in one place for the daemon, tests and
// benchmarks: the stores are built here once, not by each job on each run.
import type { JobServices } from '../../jobs/job-services.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { BundleStore } from '../artifacts/bundle-store.js';
import type { Config } from '../config/config-schema.js';
import { MirrorRegistry } from '../git/mirror-registry.js';
import { type RepoCredentials, repoCredentials } from '../git/repo-credentials.js';
import type { Logger } from '../log/create-logger.js';
import { DocsyncMetrics } from '../metrics/docsync-metrics.js';
import { notifyingStores } from '../notify/notifying-stores.js';
import { type Notify, notifier } from '../notify/queue-notification.js';
import type { Queues } from '../queue/queues.js';
import type { RedisClient } from '../redis/redis-connections.js';
import { redisStores } from '../state/redis-stores.js';
import type { Stores } from '../state/stores.js';

/**
 * Where the stores live: in Redis, on the connection that waits through reconnects (state writes
 * of a job must not fail fast), or ready-made (the in-memory ones of tests and benchmarks).
 */
export type StoresSource = { redis: RedisClient } | { stores: Stores };

export type JobServicesInput = StoresSource & {
  config: Config;
  queues: Queues;
  log: Logger;
  api?: DocsApiClient | undefined;
  artifacts?: BundleStore | undefined;
  /** Each repository's `git.auth` credentials: the daemon's; built here (key files read) when not given. */
  credentials?: RepoCredentials | undefined;
  now?: () => Date;
  /** The daemon's, served at /metrics; tests and benchmarks that do not read them get their own. */
  metrics?: DocsyncMetrics;
};

export function createJobServices(input: JobServicesInput): JobServices {
  const now = input.now ?? (() => new Date());
  const hooks = input.config.notify;
  const notify =
    hooks.length === 0 ? undefined : notifier(input.queues, hooks, input.log.child({ component: 'notify' }));
  return {
    config: input.config,
    queues: input.queues,
    now,
    api: input.api,
    stores: withNotifications(
      'stores' in input ? input.stores : redisStores(input.redis, input.config.redis.prefix),
      notify,
      input,
      now,
    ),
    mirrorFor: mirrorRegistry(input).mirrorFor,
    artifacts: input.artifacts,
    dryRun: input.config.dryRun,
    metrics: input.metrics ?? new DocsyncMetrics(),
    notify,
  };
}

/**
 * The mirrors, each with its repository's credentials, built here once: a key file of `git.auth`
 * that cannot be used stops the start (GIT_AUTH_KEY_INVALID) before any job runs.
 */
function mirrorRegistry(input: JobServicesInput): MirrorRegistry {
  const log = input.log.child({ component: 'git' });
  return new MirrorRegistry({
    dataDir: input.config.dataDir,
    log,
    credentials: input.credentials ?? repoCredentials(input.config, { log }),
  });
}

/** The stores, telling the webhooks of `notify:` what happens as jobs write to them (src/notify/). */
function withNotifications(
  stores: Stores,
  notify: Notify | undefined,
  input: JobServicesInput,
  now: () => Date,
): Stores {
  const hooks = input.config.notify;
  if (notify === undefined) return stores;
  return notifyingStores(stores, {
    notify,
    wanted: new Set(hooks.flatMap((hook) => hook.events)),
    failingAfter: input.config.health.failingAfter,
    mappingOfSpace: (space) => input.config.mappings.find((mapping) => mapping.space === space)?.name,
    now,
  });
}
