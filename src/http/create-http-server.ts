// docsync's HTTP server: health, readiness and status now; hooks, artifacts and the status page
// register here as they arrive. With `http.token` set, everything but /healthz needs it.
import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Logger } from '../log/create-logger.js';
import { type HealthDeps, registerHealthRoutes } from './routes/health-routes.js';
import { registerStatusRoute, type StatusDeps } from './routes/status-route.js';

export interface HttpServerOptions extends HealthDeps, StatusDeps {
  log: Logger;
  token: string | undefined;
}

const PUBLIC_PATHS = new Set(['/healthz']);

export async function createHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
  const loggerInstance: FastifyBaseLogger = options.log;
  const server = Fastify({
    loggerInstance,
    // One debug line per request from the onResponse hook below, rather than two info lines.
    logController: new LogController({ disableRequestLogging: true }),
    // Status answers are small; nothing docsync accepts needs more.
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
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
      if (PUBLIC_PATHS.has(request.url.split('?')[0] ?? '')) return;
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
  return server;
}
