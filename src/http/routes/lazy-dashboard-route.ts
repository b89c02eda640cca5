// `/ui` served before bull-board is loaded: the routes are registered at once (fastify takes no
// route once it listens), and bull-board (about 70 modules, its UI's files) loads after the server
// answers and the queues are made, into a server of its own that never listens. Each request to /ui is handed to it in
// memory, behind the same token check and logging as every other route.
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Logger } from '../../log/create-logger.js';
import { errorBody } from '../error-body.js';
import { DASHBOARD_PATH } from './dashboard-path.js';
import type { DashboardOptions } from './dashboard-route.js';

export interface LazyDashboard {
  /** Loads bull-board now (the first request to /ui waits for the same load). */
  load(): Promise<void>;
}

/** Headers of the inner answer that belong to its (in-memory) connection, not to the caller's. */
const CONNECTION_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
]);

export interface LazyDashboardOptions {
  /** The queues the dashboard shows, once they are made. */
  queues: () => Promise<DashboardOptions['queues']>;
  readOnly: boolean;
  log: Logger;
}

export function registerLazyDashboardRoute(
  server: FastifyInstance,
  options: LazyDashboardOptions,
): LazyDashboard {
  let loading: Promise<FastifyInstance> | undefined;
  const inner = (): Promise<FastifyInstance> => {
    loading ??= loadDashboard(options).catch((error: unknown) => {
      // A later request tries again.
      loading = undefined;
      throw error;
    });
    return loading;
  };

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    let dashboard: FastifyInstance;
    try {
      dashboard = await inner();
    } catch (error) {
      options.log.error({ err: error }, 'the queue dashboard could not be loaded');
      return reply.code(500).send(errorBody(500, 'docsync could not load the queue dashboard'));
    }
    const headers = { ...request.headers };
    delete headers['content-length'];
    delete headers['transfer-encoding'];
    const answer = await dashboard.inject({
      method: request.method as 'GET',
      url: request.url,
      headers,
      ...(request.body === undefined ? {} : { payload: payloadOf(request.body) }),
    });
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !CONNECTION_HEADERS.has(name.toLowerCase())) reply.header(name, value);
    }
    return reply.code(answer.statusCode).send(answer.rawPayload);
  };
  server.all(DASHBOARD_PATH, forward);
  server.all(`${DASHBOARD_PATH}/*`, forward);
  return {
    load: async () => {
      await inner();
    },
  };
}

/** The body as the caller sent it: fastify parsed JSON into a value, other types stay text or bytes. */
function payloadOf(body: unknown): string | Buffer {
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body;
  return JSON.stringify(body);
}

async function loadDashboard(options: LazyDashboardOptions): Promise<FastifyInstance> {
  const queues = await options.queues();
  const { registerDashboardRoute } = await import('./dashboard-route.js');
  const loggerInstance: FastifyBaseLogger = options.log;
  const dashboard = Fastify({
    loggerInstance,
    // The outer server logs each request already.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
  });
  await registerDashboardRoute(dashboard, { queues, readOnly: options.readOnly });
  await dashboard.ready();
  return dashboard;
}
