// The settings the queue layer reads, declared here as the shapes it needs: the configuration's
// sections (src/config/config-schema.ts) satisfy them, and the queue layer imports no config code.

/** Where BullMQ's keys and docsync's own keys of the queues live in Redis. */
export interface RedisKeySettings {
  prefix: string;
}

/** How jobs are run and kept (the configuration's `queues:`). */
export interface QueueSettings {
  concurrency: number;
  lockDuration: number;
  stalledInterval: number;
  attempts: number;
  backoff: number;
  keepCompleted: { count: number; age: number };
  keepFailed: { count: number; age: number };
}

/** How long space locks live and how long a job that found one busy waits (`locks:`). */
export interface LockSettings {
  ttl: number;
  busyDelay: number;
}

/** What the runner reads of the configuration. */
export interface RunnerSettings {
  redis: RedisKeySettings;
  queues: QueueSettings;
  locks: LockSettings;
}
