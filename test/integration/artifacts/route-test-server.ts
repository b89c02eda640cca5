// A bare fastify server on 127.0.0.1, port 0, with the routes a test registers and a plain JSON
// route beside them, logging into a captured log with fastify's request lines on (the noisiest
// setting, so that tests see anything a route lets slip into a log). Closed after the file.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { afterAll } from 'vitest';
import type { Logger } from '../../../src/log/create-logger.js';

export interface RouteTestServer {
  origin: string;
  server: FastifyInstance;
}

export async function startRouteServer(
  log: Logger,
  register: (server: FastifyInstance) => void,
): Promise<RouteTestServer> {
  const loggerInstance: FastifyBaseLogger = log;
  // Closing at the end of the file must not wait on a keep-alive connection whose response was
  // still ending when close() looked for idle ones.
  const server = Fastify({ loggerInstance, bodyLimit: 1024 * 1024, forceCloseConnections: true });
  // Another route of the same server: its JSON must still be parsed as JSON.
  server.post('/echo', async (request) => ({ received: request.body }));
  register(server);
  afterAll(() => server.close());
  const origin = await server.listen({ host: '127.0.0.1', port: 0 });
  return { origin, server };
}
