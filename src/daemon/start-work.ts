// The daemon's work, started once its HTTP server answers: the service client, the workers (the
// job registry of jobs/ and what its processors use) and the producers. start-daemon.ts loads this
// module only then, so that /healthz does not wait for the modules of the work.
import { JOBS } from '../../jobs/registry.js';
import { createDocsApiClient } from '../api/create-docs-api-client.js';
import { type RequestBudget, ServiceBudget } from '../api/service-budget.js';
import type { BundleStore } from '../artifacts/bundle-store.js';
import type { Config } from '../config/config-schema.js';
import type { RepoCredentials } from '../git/repo-credentials.js';
import type { Shutdown } from '../lifecycle/shutdown.js';
import type { Logger } from '../log/create-logger.js';
import type { DocsyncMetrics } from '../metrics/docsync-metrics.js';
import { closeOpenApiWorkers } from '../openapi/load-openapi-off-thread.js';
import { lossCheckIntervalMs } from '../producers/loss-check-interval.js';
import { RedisLossWatch } from '../producers/redis-loss-watch.js';
import { syncAllSchedulers } from '../producers/sync-all-schedulers.js';
import { WorkingCopyWatcher } from '../producers/working-copy-watcher.js';
import type { AnyJobDefinition } from '../queue/job-definition.js';
import { JobRunner } from '../queue/job-runner.js';
import type { Queues } from '../queue/queues.js';
import { resetWorkBackOffs } from '../queue/work-back-offs.js';
import type { RedisConnections } from '../redis/redis-connections.js';
import { DerivedMappingRefresher } from '../versions/derived-mapping-refresher.js';
import { expandBranchMappings } from '../versions/expand-branch-mappings.js';
import { RedisVersionStateStore } from '../versions/redis-version-state-store.js';
import { createJobServices } from './create-job-services.js';
import { runnerPorts } from './runner-ports.js';

export interface WorkOptions {
  config: Config;
  log: Logger;
  /** The processors the workers run: the registry of jobs/ (the one place src/ takes it from) unless given. */
  jobs?: readonly AnyJobDefinition[] | undefined;
  shutdown: Shutdown;
  redis: RedisConnections;
  queues: Queues;
  artifacts: BundleStore;
  metrics: DocsyncMetrics;
  /** Each repository's `git.auth` credentials, built when the daemon started. */
  credentials: RepoCredentials;
  now: () => Date;
  /** Aborted when the embedded Redis died: the workers then stop without waiting for their jobs. */
  redisLost: AbortSignal;
  /** Throws when a shutdown has begun, so that no further part starts. */
  stopIfStopping: () => void;
}

/** What the work made that others of the process share. */
export interface Work {
  /** The budget of service.rateLimit, for the process's other clients of the service (the startup checks). */
  serviceBudget: RequestBudget | undefined;
}

/** Starts the workers, then the producers; each part registers its stop with the shutdown owner. */
export async function startWork(options: WorkOptions): Promise<Work> {
  const { config, log, shutdown, redis, queues, metrics, stopIfStopping } = options;
  const rateLimit = config.service?.rateLimit;
  // service.rateLimit: one budget for every process on this Redis, asked on the producer connection
  // (it fails fast: with Redis away, requests go without the budget rather than hang).
  const budget =
    rateLimit === undefined
      ? undefined
      : new ServiceBudget({
          redis: redis.producer(),
          prefix: config.redis.prefix,
          limit: { requests: rateLimit.requests, perMs: rateLimit.per },
          log: log.child({ component: 'api' }),
          onWait: (event) => metrics.serviceBudgetWait(event),
        });
  const api =
    config.service === undefined
      ? undefined
      : createDocsApiClient(config.service, {
          logger: log.child({ component: 'api' }),
          onAttempt: (event) => metrics.apiCall(event),
          onRetry: (event) => metrics.apiRetry(event),
          budget,
        });
  if (api !== undefined) shutdown.add('service client', () => api.close());

  // Each branch of a branches mapping is a mapping of its own, known from the versions state:
  // before the workers start, so that no job of one finds its mapping missing.
  const versions = new RedisVersionStateStore(queues.connection, config.redis.prefix);
  await expandBranchMappings(config, versions);
  const refresher = new DerivedMappingRefresher(config, versions, log.child({ component: 'versions' }));
  shutdown.add('derived mappings', () => refresher.close());
  refresher.start();
  stopIfStopping();
  // After the workers (steps run last registered first): a refresh still running keeps its thread.
  shutdown.add('openapi worker threads', () => closeOpenApiWorkers());
  const runner = new JobRunner({
    definitions: options.jobs ?? JOBS,
    connection: redis.worker(),
    config,
    ...runnerPorts(
      createJobServices({
        config,
        // The jobs' state on a connection of its own, auto-pipelined (redis-connections.ts).
        redis: redis.state(),
        queues,
        log,
        api,
        artifacts: options.artifacts,
        credentials: options.credentials,
        now: options.now,
        metrics,
      }),
    ),
    log: log.child({ component: 'worker' }),
    stopSignal: shutdown.forced,
  });
  shutdown.add('workers', () => runner.close({ force: options.redisLost.aborted }));
  // A start tries failed work at once, whatever its back-off (a new token, a new configuration).
  await resetWorkBackOffs(queues, options.now());
  runner.start();

  // Producers last: they only enqueue, and stop first.
  stopIfStopping();
  const producerLog = log.child({ component: 'producer' });
  await syncAllSchedulers(queues, config, producerLog);
  // The schedulers live only in Redis: put back if it comes back empty under this process.
  const lossWatch = new RedisLossWatch({
    redis: queues.connection,
    prefix: config.redis.prefix,
    intervalMs: lossCheckIntervalMs(config),
    restore: () => syncAllSchedulers(queues, config, producerLog),
    log: producerLog,
    onLook: (result) => metrics.redisLossCheck(result),
    description: redis.description,
    now: options.now,
  });
  shutdown.add('redis loss watch', () => lossWatch.close());
  await lossWatch.start();
  const watcher = new WorkingCopyWatcher(queues.get('import'), log.child({ component: 'watcher' }));
  shutdown.add('working copy watchers', () => watcher.close());
  await watcher.start(config.mappings);
  return { serviceBudget: budget };
}
