// Puts the daemon together in the order things depend on each other: Redis (configured or
// embedded), HTTP, queues and metrics, workers, producers. Each part registers its own stop with the
// shutdown owner as soon as it runs, so a start that fails half-way still closes what it opened. The
// HTTP port is bound first (early-http-server.ts: /healthz answers, the rest 503 until the app is
// ready), so a taken port fails before Redis starts. What is not needed to serve loads later: the
// app's modules while redis-server starts, the queues' and metrics' once the app serves
// (serve-daemon.ts), then the workers' and producers' (start-work.ts).
import { join } from 'node:path';
import type { RequestBudget } from '../api/service-budget.js';
import type { Config } from '../config/config-schema.js';
import { ShutdownError } from '../errors/shutdown-error.js';
import { type RepoCredentials, repoCredentials } from '../git/repo-credentials.js';
import { EarlyHttpServer } from '../http/early-http-server.js';
import type { Shutdown } from '../lifecycle/shutdown.js';
import type { Logger } from '../log/create-logger.js';
import type { AnyJobDefinition } from '../queue/job-definition.js';
import type { Queues } from '../queue/queues.js';
import { startEmbeddedRedis } from '../redis/embedded-redis-server.js';
import type { RedisConnections, RedisTarget } from '../redis/redis-connections.js';
import { readRedisTarget } from '../redis/redis-target.js';
import { ensureWritableDataDir } from './ensure-writable-data-dir.js';

export interface DaemonOptions {
  config: Config;
  log: Logger;
  /** The processors the workers run: the registry of jobs/ (the one place src/ takes it from) unless given. */
  jobs?: readonly AnyJobDefinition[];
  shutdown: Shutdown;
  version: string;
  now?: () => Date;
  /** Where relative key paths of `git.auth` start: where docsync was started (the process's by default). */
  cwd?: string;
  /** The embedded Redis starts empty (the demo, whose service starts empty too). */
  freshRedis?: boolean;
}

export interface Daemon {
  /** The address the HTTP server listens on, such as http://127.0.0.1:8787. */
  httpAddress: string;
  redis: RedisConnections;
  queues: Queues;
  /** Each repository's `git.auth` credentials, shared by the jobs and the startup checks. */
  credentials: RepoCredentials;
  /** The budget of service.rateLimit every process on the Redis shares; the startup checks take it too. */
  serviceBudget: RequestBudget | undefined;
}

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

  // Before anything opens: a folder docsync cannot write is a refusal to start, not a stack later.
  await ensureWritableDataDir(config.dataDir);
  // Key files of `git.auth` are read and checked here: one that cannot be used (GIT_AUTH_KEY_INVALID)
  // stops the start before Redis or any server starts.
  const credentials = repoCredentials(config, {
    log: log.child({ component: 'git' }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const early = await EarlyHttpServer.listen({
    host: config.http.listen.host,
    port: config.http.listen.port,
    log: log.child({ component: 'http' }),
  });
  // Registered first, so it closes last on a start that fails half-way; once the app serves, its own
  // step closes the app and this server in the place of the HTTP server.
  shutdown.add('http server', () => early.close());
  stopIfStopping();

  // Set when the embedded Redis dies under docsync: nothing can be waited for on it any more.
  const redisLost = new AbortController();
  // What serves HTTP (fastify, ioredis, the routes) loads while redis-server starts in its process:
  // once it is spawned, since compiling those modules holds the event loop, and with it the spawn.
  let serving: Promise<typeof import('./serve-daemon.js')> | undefined;
  const loadServing = () => {
    if (serving === undefined) {
      serving = import('./serve-daemon.js');
      serving.catch(() => undefined);
    }
    return serving;
  };
  const target = await redisTarget(
    config,
    log,
    shutdown,
    redisLost,
    options.freshRedis === true,
    loadServing,
  );
  stopIfStopping();
  const { serveDaemon } = await unlessStopping(loadServing(), shutdown.begun);
  const { httpAddress, redis, queues, artifacts, metrics } = await serveDaemon({
    config,
    log,
    shutdown,
    target,
    early,
    version: options.version,
    startedAt,
    now,
    stopIfStopping,
  });

  stopIfStopping();
  const { startWork } = await unlessStopping(import('./start-work.js'), shutdown.begun);
  const { serviceBudget } = await startWork({
    config,
    log,
    jobs: options.jobs,
    shutdown,
    redis,
    queues,
    artifacts,
    metrics,
    credentials,
    now,
    redisLost: redisLost.signal,
    stopIfStopping,
  });

  log.info(
    {
      http: httpAddress,
      mappings: config.mappings.length,
      openapi: config.openapi.length,
      dryRun: config.dryRun,
    },
    'docsync started',
  );
  return { httpAddress, redis, queues, credentials, serviceBudget };
}

/**
 * A module being loaded, or a ShutdownError as soon as a shutdown begins: loading cannot be stopped,
 * but a SIGTERM right after /healthz answered need not wait for the workers' modules.
 */
function unlessStopping<T>(loading: Promise<T>, stopping: AbortSignal): Promise<T> {
  if (stopping.aborted) return Promise.reject(new ShutdownError());
  return new Promise<T>((resolve, reject) => {
    const onStop = () => reject(new ShutdownError());
    stopping.addEventListener('abort', onStop, { once: true });
    loading.then(resolve, reject).finally(() => stopping.removeEventListener('abort', onStop));
  });
}

async function redisTarget(
  config: Config,
  log: Logger,
  shutdown: Shutdown,
  redisLost: AbortController,
  fresh: boolean,
  onStarting: () => void,
): Promise<RedisTarget> {
  const configured = await readRedisTarget(config.redis, process.cwd());
  if (configured !== undefined) {
    onStarting();
    return configured;
  }
  const embedded = await startEmbeddedRedis({
    dir: join(config.dataDir, 'redis'),
    log: log.child({ component: 'embedded-redis' }),
    fresh,
    onSpawned: onStarting,
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
