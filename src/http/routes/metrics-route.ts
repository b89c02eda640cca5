// /metrics: docsync's metrics in Prometheus text format, for a scraper holding `http.token` when
// one is set. Gauges read from Redis are read at each scrape; a failed read leaves them out.
import type { FastifyInstance } from 'fastify';
import type { DocsyncMetrics } from '../../metrics/docsync-metrics.js';

/** `made` gives the metrics once they are made (the daemon makes them once the app serves). */
export function registerMetricsRoute(server: FastifyInstance, made: () => Promise<DocsyncMetrics>): void {
  server.get('/metrics', async (_request, reply) => {
    const metrics = await made();
    const text = await metrics.text();
    return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(text);
  });
}
