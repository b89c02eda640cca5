// /status: what this docsync is and what its queues hold. Later parts add mappings, specs and
// failures to the same document.
import type { FastifyInstance } from 'fastify';
import type { Queues } from '../../queue/queues.js';

export interface StatusDeps {
  version: string;
  startedAt: Date;
  queues: Queues;
  now?: () => Date;
  /** Every mapping with its state: active or paused and why, last import, last error. */
  mappings?: () => Promise<unknown[]>;
  /** Every OpenAPI spec with its last refresh, its version and what the last version changed. */
  openapi?: () => Promise<unknown[]>;
}

export function registerStatusRoute(server: FastifyInstance, deps: StatusDeps): void {
  const now = deps.now ?? (() => new Date());
  server.get('/status', async (request, reply) => {
    let queues: Awaited<ReturnType<Queues['counts']>>;
    let mappings: unknown[];
    let openapi: unknown[];
    try {
      [queues, mappings, openapi] = await Promise.all([
        deps.queues.counts(),
        deps.mappings?.() ?? [],
        deps.openapi?.() ?? [],
      ]);
    } catch (error) {
      request.log.warn({ err: error }, 'status could not read the queues');
      return reply
        .code(503)
        .send({ error: { code: 503, message: 'Redis does not answer: queue counts are unavailable' } });
    }
    return {
      version: deps.version,
      startedAt: deps.startedAt.toISOString(),
      uptimeSeconds: Math.round((now().getTime() - deps.startedAt.getTime()) / 1000),
      mappings,
      openapi,
      queues,
    };
  });
}
