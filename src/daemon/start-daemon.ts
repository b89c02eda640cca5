// Puts the daemon together in the order things depend on each other: Redis (configured or
// embedded), queues, HTTP, workers, producers. Each part registers its own stop with the shutdown
// owner as soon as it runs, so a start that fails half-way still closes what it opened.
import { join } from 'node:path';
import { JOBS } from '../../jobs/registry.js';
import { createDocsApiClient } from '../api/create-docs-api-client.js';
import { ArtifactStore, artifactSecret } from '../artifacts/artifact-store.js';
import type { Config } from '../config/config-schema.js';
import { EnvironmentError } from '../errors/environment-error.js';
import { ShutdownError } from '../errors/shutdown-error.js';
import { createHttpServer } from '../http/create-http-server.js';
import type { Shutdown } from '../lifecycle/shutdown.js';
import type { Logger } from '../log/create-logger.js';
import { DocsyncMetrics } from '../metrics/docsync-metrics.js';
import { readBrokenLinks } from '../metrics/read-broken-links.js';
import { readHealthCounts } from '../metrics/read-health-counts.js';
import {
  syncChangeRequestPollSchedulers,
  syncGitPollSchedulers,
  syncSpacePollSchedulers,
} from '../producers/git-poll-schedulers.js';
import { syncLinkCheckSchedulers } from '../producers/link-check-schedulers.js';
import { syncOpenApiSchedulers } from '../producers/openapi-schedulers.js';
import { pushTrigger } from '../producers/push-trigger.js';
import { WorkingCopyWatcher } from '../producers/working-copy-watcher.js';
import type { AnyJobDefinition } from '../queue/job-definition.js';
import { JobRunner } from '../queue/job-runner.js';
import { Queues } from '../queue/queues.js';
import { checkRedisServer } from '../redis/check-redis-server.js';
import { startEmbeddedRedis } from '../redis/embedded-redis-server.js';
import { RedisConnections, type RedisTarget } from '../redis/redis-connections.js';
import { waitUntilReady } from '../redis/wait-until-ready.js';
import { redisStores } from '../state/redis-stores.js';
import { mappingStatuses } from '../status/mapping-statuses.js';
import { openApiStatuses } from '../status/openapi-statuses.js';
import { createJobDeps } from './create-job-deps.js';

export interface DaemonOptions {
  config: Config;
  log: Logger;
  /** The processors the workers run: the registry of jobs/ (the one place src/ takes it from) unless given. */
  jobs?: readonly AnyJobDefinition[];
  shutdown: Shutdown;
  version: string;
  now?: () => Date;
  /** The embedded Redis starts empty (the demo, whose service starts empty too). */
  freshRedis?: boolean;
}

export interface Daemon {
  /** The address the HTTP server listens on, such as http://127.0.0.1:8787. */
  httpAddress: string;
  redis: RedisConnections;
  queues: Queues;
}

const REDIS_READY_TIMEOUT_MS = 10_000;
const REDIS_LOST_SHUTDOWN_MS = 5_000;

export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const { config, log, shutdown } = options;
  const now = options.now ?? (() => new Date());
  const startedAt = now();

  // A signal can arrive while a part starts: stop starting further parts, the shutdown owner
  // closes the ones already running.
  const stopIfStopping = () => {
    if (shutdown.begun.aborted) throw new ShutdownError();
  };

  // Set when the embedded Redis dies under docsync: nothing can be waited for on it any more.
  const redisLost = new AbortController();
  const target = await redisTarget(config, log, shutdown, redisLost, options.freshRedis === true);
  stopIfStopping();
  const redis = new RedisConnections(target, log.child({ component: 'redis' }));
  shutdown.add('redis connections', () => redis.close());
  await waitUntilReady(redis.producer(), redis.description, REDIS_READY_TIMEOUT_MS);
  const [facts] = await checkRedisServer(redis.producer(), log.child({ component: 'redis' }));
  stopIfStopping();
  log.info(
    { redis: redis.description, version: facts?.version, prefix: config.redis.prefix },
    'redis connected',
  );

  const queues = new Queues(redis.producer(), config, log.child({ component: 'queue' }));
  shutdown.add('queues', () => queues.close());

  // What /status, the page and the metrics read: the state every process shares in Redis.
  const shared = redisStores(redis.producer(), config.redis.prefix);

  // Gauges of shared state are read from Redis when scraped, so every process shows the same.
  const metricsLog = log.child({ component: 'metrics' });
  const metrics = new DocsyncMetrics({
    processMetrics: true,
    readers: {
      queueCounts: () => queues.counts(),
      brokenLinks: () => readBrokenLinks(config.mappings, shared.mappings, shared.links),
      health: () => readHealthCounts(config, shared),
    },
    onReadError: (metric, error) => metricsLog.warn({ metric, err: error }, 'metric unavailable'),
  });

  const api =
    config.service === undefined
      ? undefined
      : createDocsApiClient(config.service, {
          logger: log.child({ component: 'api' }),
          onAttempt: (event) => metrics.apiCall(event),
          onRetry: (event) => metrics.apiRetry(event),
        });
  if (api !== undefined) shutdown.add('service client', () => api.close());
  let httpAddress = '';
  const artifacts = new ArtifactStore({
    dir: join(config.dataDir, 'artifacts'),
    secret: artifactSecret(config.http.artifactSecret),
    publicUrl: () => config.http.publicUrl ?? httpAddress,
    ttlMs: config.http.artifactTtl,
    log: log.child({ component: 'artifacts' }),
  });
  artifacts.start();
  shutdown.add('artifact store', () => artifacts.close());

  const http = await createHttpServer({
    log: log.child({ component: 'http' }),
    token: config.http.token,
    redis: redis.producer(),
    stopping: shutdown.begun,
    version: options.version,
    startedAt,
    queues,
    now,
    artifacts,
    metrics,
    mappings: () => mappingStatuses(config, shared.mappings, shared.verdicts, shared.links),
    openapi: () => openApiStatuses(config, shared.openapi),
    events: () => shared.events.recent(),
    ...(config.http.dashboard.enabled
      ? { dashboard: { queues, readOnly: config.http.dashboard.readOnly } }
      : {}),
    ...(config.mappings.length === 0
      ? {}
      : {
          hooks: {
            secret: config.hooks.secret,
            gitlabToken: config.hooks.gitlabToken,
            onPush: pushTrigger(queues.get('import'), config.mappings),
          },
        }),
  });
  shutdown.add('http server', () => http.close());
  stopIfStopping();
  try {
    httpAddress = await http.listen({ host: config.http.listen.host, port: config.http.listen.port });
  } catch (error) {
    throw new EnvironmentError(
      'HTTP_LISTEN_FAILED',
      `cannot listen on ${config.http.listen.host}:${config.http.listen.port} (${(error as NodeJS.ErrnoException).code ?? 'error'}): choose another http.listen`,
      { cause: error },
    );
  }

  stopIfStopping();
  const runner = new JobRunner({
    definitions: options.jobs ?? JOBS,
    connection: redis.worker(),
    config,
    deps: createJobDeps({ config, redis: redis.worker(), queues, log, api, artifacts, now, metrics }),
    log: log.child({ component: 'worker' }),
    stopSignal: shutdown.forced,
  });
  shutdown.add('workers', () => runner.close({ force: redisLost.signal.aborted }));
  runner.start();

  // Producers last: they only enqueue, and stop first.
  stopIfStopping();
  await syncGitPollSchedulers(queues.get('import'), config.mappings, log.child({ component: 'producer' }));
  await syncChangeRequestPollSchedulers(
    queues.get('maintain'),
    config.mappings,
    log.child({ component: 'producer' }),
  );
  await syncLinkCheckSchedulers(queues.get('links'), config.mappings, log.child({ component: 'producer' }));
  await syncSpacePollSchedulers(queues.get('export'), config.mappings, log.child({ component: 'producer' }));
  await syncOpenApiSchedulers(queues.get('openapi'), config.openapi, log.child({ component: 'producer' }));
  const watcher = new WorkingCopyWatcher(queues.get('import'), log.child({ component: 'watcher' }));
  shutdown.add('working copy watchers', () => watcher.close());
  await watcher.start(config.mappings);

  log.info(
    {
      http: httpAddress,
      mappings: config.mappings.length,
      openapi: config.openapi.length,
      dryRun: config.dryRun,
    },
    'docsync started',
  );
  return { httpAddress, redis, queues };
}

async function redisTarget(
  config: Config,
  log: Logger,
  shutdown: Shutdown,
  redisLost: AbortController,
  fresh: boolean,
): Promise<RedisTarget> {
  if (config.redis.url !== undefined) return { url: config.redis.url };
  if (config.redis.cluster !== undefined) return { clusterNodes: config.redis.cluster.nodes };
  const embedded = await startEmbeddedRedis({
    dir: join(config.dataDir, 'redis'),
    log: log.child({ component: 'embedded-redis' }),
    fresh,
    // Without its Redis docsync can do nothing: stop cleanly rather than serve a healthy-looking shell.
    onUnexpectedExit: () => {
      redisLost.abort();
      // Nothing that needs Redis can finish now: do not wait the full shutdown timeout for it.
      void shutdown.run('embedded redis-server exited', 1, { timeoutMs: REDIS_LOST_SHUTDOWN_MS });
    },
  });
  shutdown.add('embedded redis-server', () => embedded.stop());
  return { url: embedded.url };
}
