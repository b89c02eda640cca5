// docsync's HTTP server: the status page, health, readiness, status, metrics, the queue dashboard,
// the push webhook and artifacts. With `http.token` set, everything but /healthz (and what carries
// its own proof: hooks, artifacts) needs it. Given the early server (early-http-server.ts), fastify
// answers through it, which already listens, rather than making and binding a server of its own.
// The queues and the metrics may come after the server is ready: the routes that read them wait for
// them, /healthz and /readyz never do.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { Logger } from '../log/create-logger.js';
import type { DocsyncMetrics } from '../metrics/docsync-metrics.js';
import type { Queues } from '../queue/queues.js';
import { redisWrites } from '../redis/redis-write-refusal.js';
import type { StatusDeps } from '../status/read-status.js';
import type { EarlyHttpServer } from './early-http-server.js';
import { isPublicPath } from './public-paths.js';
import { registerArtifactRoute } from './routes/artifact-route.js';
import { type GitHookDeps, registerGitHookRoute } from './routes/git-hook-route.js';
import { type HealthDeps, registerHealthRoutes } from './routes/health-routes.js';
import { type LazyDashboard, registerLazyDashboardRoute } from './routes/lazy-dashboard-route.js';
import { registerMetricsRoute } from './routes/metrics-route.js';
import { registerStatusPageRoute } from './routes/status-page-route.js';
import { registerStatusRoute } from './routes/status-route.js';
import { TOKEN_CHALLENGES, tokenCheck } from './token-check.js';

/** What the routes past health read from BullMQ and prom-client, which the daemon makes once the app serves. */
export interface QueuesAndMetrics {
  queues: Queues;
  metrics: DocsyncMetrics;
}

export interface HttpServerOptions extends HealthDeps, Omit<StatusDeps, 'queues'> {
  log: Logger;
  token: string | undefined;
  /**
   * The queues (/status, the page, the dashboard) and the metrics (/metrics), made now or later: a
   * request that reads them waits until they are made.
   */
  queuesAndMetrics: Promise<QueuesAndMetrics>;
  /** Serves signed bundle addresses to the service, when imports run in this process. */
  artifacts?: ArtifactStore | undefined;
  /** The push webhook, when mappings are configured. */
  hooks?: Omit<GitHookDeps, 'log'> | undefined;
  /** The queue dashboard (bull-board) at /ui, over the queues; none when undefined. */
  dashboard?: { readOnly: boolean } | undefined;
  /** The server already listening that fastify takes over once ready (`early.serve()`); fastify never listens then. */
  early?: EarlyHttpServer | undefined;
}

export async function createHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
  const loggerInstance: FastifyBaseLogger = options.log;
  const server = Fastify({
    loggerInstance,
    // One debug line per request from the onResponse hook below, rather than two info lines.
    logController: new LogController({ disableRequestLogging: true }),
    // Status answers are small; nothing docsync accepts needs more.
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    // Idle keep-alive connections (the service's, after fetching a bundle) must not hold shutdown.
    forceCloseConnections: true,
    ...(options.early === undefined ? {} : { serverFactory: options.early.serverFactory }),
  });
  server.addHook('onResponse', async (request, reply) => {
    request.log.debug(
      {
        method: request.method,
        route: request.routeOptions.url,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime),
      },
      'http request',
    );
  });
  const { token } = options;
  if (token !== undefined) {
    const authorized = tokenCheck(token);
    server.addHook('onRequest', async (request, reply) => {
      // The service and git hosts cannot send docsync's token: those routes check their own signature.
      if (isPublicPath(request.url)) return;
      if (!authorized(request.headers.authorization)) {
        await reply
          .code(401)
          .header('www-authenticate', TOKEN_CHALLENGES)
          .send({
            error: {
              code: 401,
              message: 'a bearer token is required: send Authorization: Bearer <http.token>',
            },
          });
      }
    });
  }
  registerHealthRoutes(server, options);
  const { queuesAndMetrics } = options;
  const queues = async () => (await queuesAndMetrics).queues;
  // What /status and the page read: the options themselves, and the queues once they are made.
  const status = async (): Promise<StatusDeps> => ({
    ...options,
    queues: await queues(),
    redisWrites: () => redisWrites(options.redis),
  });
  registerStatusRoute(server, status);
  registerStatusPageRoute(server, {
    status,
    ...(options.now === undefined ? {} : { now: options.now }),
    dashboard: options.dashboard !== undefined,
  });
  // bull-board loads only when the dashboard is on, once the server answers (lazy-dashboard-route.ts).
  const dashboard =
    options.dashboard === undefined
      ? undefined
      : registerLazyDashboardRoute(server, {
          queues,
          readOnly: options.dashboard.readOnly,
          log: options.log,
        });
  if (dashboard !== undefined) loadOnceServing(server, dashboard, options.log);
  registerMetricsRoute(server, async () => (await queuesAndMetrics).metrics);
  if (options.artifacts !== undefined)
    registerArtifactRoute(server, { store: options.artifacts, log: options.log });
  if (options.hooks !== undefined) registerGitHookRoute(server, { ...options.hooks, log: options.log });
  return server;
}

/**
 * Loads the dashboard once the server answers (and the queues are made), so that its first visitor
 * does not wait for it. The early server answers through fastify from when it is ready (fastify
 * never listens then), and a fastify that listens itself binds in the same turn as it becomes
 * ready: the load starts after.
 */
function loadOnceServing(server: FastifyInstance, dashboard: LazyDashboard, log: Logger): void {
  server.addHook('onReady', (done) => {
    setImmediate(() => {
      dashboard.load().catch((error: unknown) => {
        log.warn({ err: error }, 'the queue dashboard could not be loaded: /ui tries again when asked');
      });
    });
    done();
  });
}
