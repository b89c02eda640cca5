// What a processor in jobs/ declares: its name, its queue, the schema of its payload, the space it
// changes (for the per-space lock), and a plain async function. BullMQ workers wrap it; nothing in a
// processor knows about BullMQ.
import type { z } from 'zod';
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import type { Config } from '../config/config-schema.js';
import type { GitMirror } from '../git/git-mirror.js';
import type { Logger } from '../log/create-logger.js';
import type { DocsyncMetrics } from '../metrics/docsync-metrics.js';
import type { RedisClient } from '../redis/redis-connections.js';
import type { MappingStateStore } from '../state/mapping-state.js';
import type { QueueName } from './queue-names.js';
import type { Queues } from './queues.js';

/** What every processor returns: a short `result` word for the outcome log line, plus any details. */
export interface JobResult {
  result: string;
  [detail: string]: unknown;
}

/** The clients and settings a processor works with, passed in rather than read from globals. */
export interface JobDeps {
  config: Config;
  redis: RedisClient;
  queues: Queues;
  now: () => Date;
  /** The documentation service; undefined when the configuration names none (no mapping, no spec). */
  api: DocsApiClient | undefined;
  state: MappingStateStore;
  mirrorFor: (repo: string) => GitMirror;
  artifacts: ArtifactStore | undefined;
  /** Plan and log every step, change nothing. */
  dryRun: boolean;
  /** The process's metrics, which /metrics serves; the runner records each job's outcome in them. */
  metrics: DocsyncMetrics;
}

export interface JobContext extends JobDeps {
  log: Logger;
  /** Aborted when docsync must stop before the job ends, or when the job's space lock is lost. */
  signal: AbortSignal;
  job: { id: string; name: string; queue: QueueName; attempt: number; maxAttempts: number };
}

export interface JobDefinition<P = unknown, R extends JobResult = JobResult> {
  name: string;
  queue: QueueName;
  payload: z.ZodType<P>;
  /** The space the job changes: jobs of one space never run at the same time, in any process. */
  space?: (payload: P) => string | undefined;
  run(ctx: JobContext, payload: P): Promise<R>;
  /**
   * One sentence for people about what a completed run did, kept in the event log that the status
   * page shows; undefined when it changed nothing worth showing (an unchanged import, a clean poll).
   */
  describe?(result: R, payload: P): string | undefined;
}

/** Keeps the payload type flowing from the schema to `run` and `space`. */
export function defineJob<P, R extends JobResult>(definition: JobDefinition<P, R>): JobDefinition<P, R> {
  return definition;
}

/** A definition of any payload type, as the registry and the runner hold them. */
// biome-ignore lint/suspicious/noExplicitAny: the runner validates each payload with its own schema before use
export type AnyJobDefinition = JobDefinition<any, JobResult>;
