// What the runner is given: the definitions it runs, its Redis connection and settings, the
// services each job names (built by the daemon), and the ports it reports through. Nothing here
// names a domain: the daemon fills each port (src/daemon/start-work.ts).
import type { Logger } from '../log/create-logger.js';
import type { JobOutcome } from '../metrics/docsync-metrics.js';
import type { RedisClient } from '../redis/redis-connections.js';
import type { AnyJobDefinition } from './job-definition.js';
import type { JobOutcomes } from './job-outcomes.js';
import type { QueueName } from './queue-names.js';
import type { RunnerSettings } from './queue-settings.js';
import type { Queues } from './queues.js';

/** What the runner counts: each job's end, and each pause for the service's rate limit. */
export interface RunnerMetrics {
  jobFinished(queue: QueueName, name: string, result: JobOutcome, durationMs: number): void;
  rateLimitWait(waiter: 'queue', ms: number): void;
}

export interface JobRunnerOptions {
  definitions: readonly AnyJobDefinition[];
  connection: RedisClient;
  config: RunnerSettings;
  /** The services a definition names in `needs`, and only those. */
  servicesFor: (definition: AnyJobDefinition) => object;
  queues: Pick<Queues, 'get'>;
  outcomes: JobOutcomes;
  metrics: RunnerMetrics;
  /** Plan and log every step, record nothing. */
  dryRun: boolean;
  now: () => Date;
  log: Logger;
  /** Aborted by the shutdown owner when it has to stop before active jobs end. */
  stopSignal: AbortSignal;
  random?: () => number;
}
