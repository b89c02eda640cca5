// The queues (BullMQ) and the metrics (prom-client) of a serving daemon. Their modules are about a
// third of what serving loads, so serve-daemon.ts loads this module once the app answers, and the
// routes that read them wait for them.
import type { Config } from '../config/config-schema.js';
import type { Logger } from '../log/create-logger.js';
import { DocsyncMetrics } from '../metrics/docsync-metrics.js';
import { readBrokenLinks } from '../metrics/read-broken-links.js';
import { readHealthCounts } from '../metrics/read-health-counts.js';
import { Queues } from '../queue/queues.js';
import type { RedisClient } from '../redis/redis-connections.js';
import type { Stores } from '../state/stores.js';
import type { ServiceBudgetStatus } from '../status/service-budget-status.js';

export interface QueuesAndMetricsOptions {
  config: Config;
  log: Logger;
  /** The producer connection the queues share. */
  connection: RedisClient;
  /** The state every process shares, which the gauges read when scraped. */
  shared: Stores;
  /** The budget of service.rateLimit every process shares, when set. */
  serviceBudget?: (() => Promise<ServiceBudgetStatus>) | undefined;
}

export function makeQueuesAndMetrics(options: QueuesAndMetricsOptions): {
  queues: Queues;
  metrics: DocsyncMetrics;
} {
  const { config, log, shared } = options;
  const queues = new Queues(options.connection, config, log.child({ component: 'queue' }));

  // Gauges of shared state are read from Redis when scraped, so every process shows the same.
  const metricsLog = log.child({ component: 'metrics' });
  const metrics = new DocsyncMetrics({
    processMetrics: true,
    readers: {
      queueCounts: () => queues.counts(),
      brokenLinks: () => readBrokenLinks(config.mappings, shared.mappings, shared.links),
      health: () => readHealthCounts(config, shared),
      ...(options.serviceBudget === undefined ? {} : { serviceBudget: options.serviceBudget }),
    },
    onReadError: (metric, error) => metricsLog.warn({ metric, err: error }, 'metric unavailable'),
  });
  return { queues, metrics };
}
