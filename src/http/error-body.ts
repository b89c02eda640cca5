// The error body every docsync HTTP answer uses, `{"error": {"code": <status>, "message": "..."}}`,
// and an error handler for route scopes that answers in it without echoing the request back.
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Logger } from '../log/create-logger.js';

export interface ErrorBody {
  error: { code: number; message: string };
}

export function errorBody(code: number, message: string): ErrorBody {
  return { error: { code, message } };
}

/**
 * Errors of a route scope (body too large, unsupported media type, a dependency that threw) as
 * `ErrorBody`. Client errors keep fastify's message, which names no request data; server errors are
 * logged with the route pattern only, never the address, whose query may carry a signature.
 */
export function useErrorBody(scope: FastifyInstance, log: Logger): void {
  scope.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      log.error({ err: error, route: request.routeOptions.url }, 'http route failed');
      return reply.code(status).send(errorBody(status, 'docsync could not handle this request'));
    }
    return reply.code(status).send(errorBody(status, error.message));
  });
}
