// /status: what this docsync is and does, as docs/guide/operating.md shows it: every mapping and spec with its
// last results, the queues' counts, the next scheduled runs, the recent failures and events.
import type { FastifyInstance } from 'fastify';
import type { StatusDeps } from '../../status/read-status.js';

/**
 * `status` gives what the answer reads, once it can be read (the queues may still be being made).
 * The reading's modules load on the first request rather than before the server is ready.
 */
export function registerStatusRoute(server: FastifyInstance, status: () => Promise<StatusDeps>): void {
  server.get('/status', async (request, reply) => {
    const [{ readStatus }, deps] = await Promise.all([import('../../status/read-status.js'), status()]);
    const reading = await readStatus(deps, request.log);
    if (!reading.available) return reply.code(503).send({ error: { code: 503, message: reading.message } });
    return reading.body;
  });
}
