// docsync's HTTP server: the status page, health, readiness, status, metrics, the queue dashboard,
// the push webhook and artifacts. With `http.token` set, everything but /healthz (and what carries
// its own proof: hooks, artifacts) needs it. Given the early server (early-http-server.ts), fastify
// answers through it, which already listens, rather than making and binding a server of its own.
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { Logger } from '../log/create-logger.js';
import type { DocsyncMetrics } from '../metrics/docsync-metrics.js';
import type { StatusDeps } from '../status/read-status.js';
import type { EarlyHttpServer } from './early-http-server.js';
import { isPublicPath } from './public-paths.js';
import { registerArtifactRoute } from './routes/artifact-route.js';
import type { DashboardOptions } from './routes/dashboard-route.js';
import { type GitHookDeps, registerGitHookRoute } from './routes/git-hook-route.js';
import { type HealthDeps, registerHealthRoutes } from './routes/health-routes.js';
import { type LazyDashboard, registerLazyDashboardRoute } from './routes/lazy-dashboard-route.js';
import { registerMetricsRoute } from './routes/metrics-route.js';
import { registerStatusPageRoute } from './routes/status-page-route.js';
import { registerStatusRoute } from './routes/status-route.js';
import { TOKEN_CHALLENGES, tokenCheck } from './token-check.js';

export interface HttpServerOptions extends HealthDeps, StatusDeps {
  log: Logger;
  token: string | undefined;
  /** Serves signed bundle addresses to the service, when imports run in this process. */
  artifacts?: ArtifactStore | undefined;
  /** The push webhook, when mappings are configured. */
  hooks?: Omit<GitHookDeps, 'log'> | undefined;
  /** Served at /metrics, behind the token like /status. */
  metrics?: DocsyncMetrics | undefined;
  /** The queue dashboard (bull-board) at /ui; none when undefined. */
  dashboard?: DashboardOptions | undefined;
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
  registerStatusRoute(server, options);
  registerStatusPageRoute(server, { ...options, dashboard: options.dashboard !== undefined });
  // bull-board loads only when the dashboard is on, once the server answers (lazy-dashboard-route.ts).
  const dashboard =
    options.dashboard === undefined
      ? undefined
      : registerLazyDashboardRoute(server, { ...options.dashboard, log: options.log });
  if (dashboard !== undefined) loadOnceServing(server, dashboard, options.log);
  if (options.metrics !== undefined) registerMetricsRoute(server, options.metrics);
  if (options.artifacts !== undefined)
    registerArtifactRoute(server, { store: options.artifacts, log: options.log });
  if (options.hooks !== undefined) registerGitHookRoute(server, { ...options.hooks, log: options.log });
  return server;
}

/**
 * Loads the dashboard once the server answers, so that its first visitor does not wait for it. The
 * early server answers through fastify from when it is ready (fastify never listens then), and a
 * fastify that listens itself binds in the same turn as it becomes ready: the load starts after.
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
