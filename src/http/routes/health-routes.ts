// /healthz: the process is alive and serving. /readyz: it can do its work now (Redis answers and
// takes writes, and it is not shutting down), so a load balancer or orchestrator can hold traffic back.
import type { FastifyInstance } from 'fastify';
import type { RedisClient } from '../../redis/redis-connections.js';
import { isWriteRefusal, WRITES_REFUSED_REASON } from '../../redis/redis-write-refusal.js';

export interface HealthDeps {
  redis: RedisClient;
  stopping: AbortSignal;
}

const READY_TIMEOUT_MS = 2000;

export function registerHealthRoutes(server: FastifyInstance, deps: HealthDeps): void {
  server.get('/healthz', async () => ({ ok: true }));
  server.get('/readyz', async (_request, reply) => {
    if (deps.stopping.aborted) return reply.code(503).send({ ok: false, reason: 'shutting down' });
    try {
      await Promise.race([
        deps.redis.ping(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS).unref()),
      ]);
      return { ok: true, redis: 'ok' };
    } catch (error) {
      // A Redis with a full disk answers, with MISCONF: not one that is gone.
      const reason = isWriteRefusal(error) ? WRITES_REFUSED_REASON : 'redis does not answer';
      return reply.code(503).send({ ok: false, reason });
    }
  });
}
