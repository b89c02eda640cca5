// The part of the daemon that answers: the Redis connections, the artifact store and the HTTP app,
// served through the early server that start-daemon.ts bound before Redis, then the queues and the
// metrics. start-daemon.ts loads this module while the embedded redis-server starts; what only the
// routes past health read (the queues and metrics: BullMQ, prom-client; the shared state and the
// status readers) loads once the app serves, and the workers' modules after them.
import { join } from 'node:path';
import type { BundleStore } from '../artifacts/bundle-store.js';
import { createBundleStore } from '../artifacts/create-bundle-store.js';
import type { Config } from '../config/config-schema.js';
import { createHttpServer, type QueuesAndMetrics } from '../http/create-http-server.js';
import type { EarlyHttpServer } from '../http/early-http-server.js';
import type { PushEvent } from '../http/hooks/parse-push-event.js';
import type { Shutdown } from '../lifecycle/shutdown.js';
import type { Logger } from '../log/create-logger.js';
import type { DocsyncMetrics } from '../metrics/docsync-metrics.js';
import type { Queues } from '../queue/queues.js';
import { checkRedisServer } from '../redis/check-redis-server.js';
import { RedisConnections, type RedisTarget } from '../redis/redis-connections.js';
import { waitUntilReady } from '../redis/wait-until-ready.js';
import type { Stores } from '../state/stores.js';
import { type ServiceBudgetStatus, serviceBudgetReader } from '../status/service-budget-status.js';

export interface ServeOptions {
  config: Config;
  log: Logger;
  shutdown: Shutdown;
  target: RedisTarget;
  /** The HTTP server, listening since the start; the app answers through it once ready. */
  early: EarlyHttpServer;
  version: string;
  startedAt: Date;
  now: () => Date;
  /** Throws when a shutdown has begun, so that no further part starts. */
  stopIfStopping: () => void;
}

export interface Served {
  /** The address the HTTP server listens on, such as http://127.0.0.1:8787. */
  httpAddress: string;
  redis: RedisConnections;
  queues: Queues;
  artifacts: BundleStore;
  metrics: DocsyncMetrics;
}

const REDIS_READY_TIMEOUT_MS = 10_000;

/** Connects to Redis, then serves the app; each part registers its stop with the shutdown owner. */
export async function serveDaemon(options: ServeOptions): Promise<Served> {
  const { config, log, shutdown, early, startedAt, now, stopIfStopping } = options;
  const redis = await connectRedis(options);

  // Made once the app serves: loading BullMQ and prom-client before would hold /readyz back. Until
  // then the routes that read them wait; /healthz and /readyz do not.
  let serving = () => {};
  const served = new Promise<void>((resolve) => {
    serving = resolve;
  });
  // What /status, the page and the metrics read: the state every process shares in Redis.
  const shared: Promise<Stores> = served
    .then(() => import('../state/redis-stores.js'))
    .then(({ redisStores }) => redisStores(redis.producer(), config.redis.prefix));
  // The budget every process shares, read without taking anything (the workers take: start-work.ts).
  const rateLimit = config.service?.rateLimit;
  const serviceBudget =
    rateLimit === undefined
      ? undefined
      : serviceBudgetReader(redis.producer(), config.redis.prefix, {
          requests: rateLimit.requests,
          perMs: rateLimit.per,
        });
  let made: QueuesAndMetrics | undefined;
  const queuesAndMetrics: Promise<QueuesAndMetrics> = Promise.all([
    served.then(() => import('./make-queues-and-metrics.js')),
    shared,
  ]).then(([{ makeQueuesAndMetrics }, stores]) => {
    stopIfStopping();
    made = makeQueuesAndMetrics({ config, log, connection: redis.producer(), shared: stores, serviceBudget });
    return made;
  });
  // Registered before the HTTP server's step, so that the queues close after it (steps run last
  // registered first): a request under way still finds them open. Made after a stop began, never.
  shutdown.add('queues', async () => {
    await made?.queues.close();
  });

  // A dry run changes nothing in Redis that would change the polls of a daemon beside it.
  const hookRecord = (hooks: Stores['hooks']) =>
    config.dryRun ? undefined : { hooks, now: () => now().getTime() };
  // The push webhook's trigger, made on the first push (over the queues) and kept.
  let trigger: Promise<(push: PushEvent) => Promise<number>> | undefined;
  const pushTriggerOnce = () => {
    trigger ??= Promise.all([queuesAndMetrics, shared, import('../producers/push-trigger.js')]).then(
      ([{ queues }, { hooks }, { pushTrigger }]) =>
        pushTrigger(queues.get('import'), config.mappings, branchPushes(queues, config), hookRecord(hooks)),
    );
    return trigger;
  };

  const httpAddress = early.address;
  // With artifacts.s3 the service fetches bundles from the bucket: the artifact route is not served.
  const { store: artifacts, served: servedArtifacts } = createBundleStore({
    config,
    dir: join(config.dataDir, 'artifacts'),
    publicUrl: () => config.http.publicUrl ?? httpAddress,
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
    queuesAndMetrics,
    now,
    artifacts: servedArtifacts,
    ...statusReaders(config, shared, serviceBudget),
    early,
    ...(config.http.dashboard.enabled ? { dashboard: { readOnly: config.http.dashboard.readOnly } } : {}),
    // Branches mappings count: their derived mappings join config.mappings only once workers start.
    ...(config.mappings.length === 0 && config.branchMappings.length === 0
      ? {}
      : {
          hooks: {
            secret: config.hooks.secret,
            gitlabToken: config.hooks.gitlabToken,
            onPush: async (push) => (await pushTriggerOnce())(push),
          },
        }),
  });
  // fastify's own close (its onClose hooks) never closes a server it did not make: this server after it.
  shutdown.add('http server', async () => {
    await http.close();
    await early.close();
  });
  await http.ready();
  stopIfStopping();
  early.serve();
  serving();

  const { queues, metrics } = await queuesAndMetrics;
  return { httpAddress, redis, queues, artifacts, metrics };
}

/** Redis connected and checked, its connections' close registered with the shutdown owner. */
async function connectRedis(options: ServeOptions): Promise<RedisConnections> {
  const { config, log, shutdown, target, stopIfStopping } = options;
  const redis = new RedisConnections(target, log.child({ component: 'redis' }));
  shutdown.add('redis connections', () => redis.close());
  await waitUntilReady(redis.producer(), redis.description, REDIS_READY_TIMEOUT_MS);
  const [facts] = await checkRedisServer(redis.producer(), log.child({ component: 'redis' }));
  stopIfStopping();
  log.info(
    { redis: redis.description, mode: redis.mode, version: facts?.version, prefix: config.redis.prefix },
    'redis connected',
  );
  return redis;
}

/**
 * What /status reads of the shared state: the mappings, the OpenAPI specs, the recent events, and
 * the budget of service.rateLimit when set.
 */
function statusReaders(
  config: ServeOptions['config'],
  shared: Promise<Stores>,
  serviceBudget: (() => Promise<ServiceBudgetStatus>) | undefined,
) {
  return {
    serviceBudget,
    mappings: async () => {
      const [{ mappingStatuses }, stores] = await Promise.all([
        import('../status/mapping-statuses.js'),
        shared,
      ]);
      return mappingStatuses(config, stores.mappings, stores.verdicts, stores.links, stores.hooks);
    },
    openapi: async () => {
      const [{ openApiStatuses }, stores] = await Promise.all([
        import('../status/openapi-statuses.js'),
        shared,
      ]);
      return openApiStatuses(config, stores.openapi);
    },
    events: async () => (await shared).events.recent(),
  };
}

/** Where a push to a branch that a branches mapping takes goes: a reconcile on `maintain`. */
function branchPushes(queues: Queues, config: Config) {
  return { queue: queues.get('maintain'), mappings: config.branchMappings };
}
