// /metrics: docsync's metrics in Prometheus text format, for a scraper holding `http.token` when
// one is set. Gauges read from Redis are read at each scrape; a failed read leaves them out.
import type { FastifyInstance } from 'fastify';
import type { DocsyncMetrics } from '../../metrics/docsync-metrics.js';

export function registerMetricsRoute(server: FastifyInstance, metrics: DocsyncMetrics): void {
  server.get('/metrics', async (_request, reply) => {
    const text = await metrics.text();
    return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(text);
  });
}
