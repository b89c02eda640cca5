// docsync's HTTP server: health, readiness, status, metrics, the push webhook and artifacts. With
// `http.token` set, everything but /healthz (and what carries its own proof: hooks, artifacts) needs it.
import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { Logger } from '../log/create-logger.js';
import type { DocsyncMetrics } from '../metrics/docsync-metrics.js';
import { isPublicPath } from './public-paths.js';
import { registerArtifactRoute } from './routes/artifact-route.js';
import { type GitHookDeps, registerGitHookRoute } from './routes/git-hook-route.js';
import { type HealthDeps, registerHealthRoutes } from './routes/health-routes.js';
import { registerMetricsRoute } from './routes/metrics-route.js';
import { registerStatusRoute, type StatusDeps } from './routes/status-route.js';

export interface HttpServerOptions extends HealthDeps, StatusDeps {
  log: Logger;
  token: string | undefined;
  /** Serves signed bundle addresses to the service, when imports run in this process. */
  artifacts?: ArtifactStore | undefined;
  /** The push webhook, when mappings are configured. */
  hooks?: Omit<GitHookDeps, 'log'> | undefined;
  /** Served at /metrics, behind the token like /status. */
  metrics?: DocsyncMetrics | undefined;
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
    const expected = Buffer.from(`Bearer ${token}`);
    server.addHook('onRequest', async (request, reply) => {
      // The service and git hosts cannot send docsync's token: those routes check their own signature.
      if (isPublicPath(request.url)) return;
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        await reply
          .code(401)
          .header('www-authenticate', 'Bearer')
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
  if (options.metrics !== undefined) registerMetricsRoute(server, options.metrics);
  if (options.artifacts !== undefined)
    registerArtifactRoute(server, { store: options.artifacts, log: options.log });
  if (options.hooks !== undefined) registerGitHookRoute(server, { ...options.hooks, log: options.log });
  return server;
}
