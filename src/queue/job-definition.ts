// What a processor in jobs/ declares: its kind (name, queue, payload schema: src/queue/kinds/), the
// key of the lock it runs under (the space it changes), and a plain async function. BullMQ workers
// wrap it; nothing in a processor knows about BullMQ.
import type { z } from 'zod';
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { BundleStore } from '../artifacts/bundle-store.js';
import type { Config } from '../config/config-schema.js';
import type { GitMirror } from '../git/git-mirror.js';
import type { Logger } from '../log/create-logger.js';
import type { DocsyncMetrics } from '../metrics/docsync-metrics.js';
import type { Notify } from '../notify/queue-notification.js';
import type { Stores } from '../state/stores.js';
import type { JobKind } from './job-kind.js';
import type { QueueName } from './queue-names.js';
import type { Queues } from './queues.js';
import type { LockMode } from './space-locks.js';

/** What every processor returns: a short `result` word for the outcome log line, plus any details. */
export interface JobResult {
  result: string;
  [detail: string]: unknown;
}

/** The clients and settings a processor works with, passed in rather than read from globals. */
export interface JobDeps {
  config: Config;
  queues: Queues;
  now: () => Date;
  /** The documentation service; undefined when the configuration names none (no mapping, no spec). */
  api: DocsApiClient | undefined;
  /** What docsync remembers between jobs, built once per process (Redis, or memory without it). */
  stores: Stores;
  mirrorFor: (repo: string) => GitMirror;
  artifacts: BundleStore | undefined;
  /** Plan and log every step, change nothing. */
  dryRun: boolean;
  /** The process's metrics, which /metrics serves; the runner records each job's outcome in them. */
  metrics: DocsyncMetrics;
  /** Tells the webhooks of `notify:` (src/notify/); undefined when none is configured. Never throws. */
  notify?: Notify | undefined;
}

export interface JobContext extends JobDeps {
  log: Logger;
  /** Aborted when docsync must stop before the job ends, or when the job's space lock is lost. */
  signal: AbortSignal;
  job: {
    id: string;
    name: string;
    queue: QueueName;
    attempt: number;
    maxAttempts: number;
    /**
     * When the job failed for good and its work backs off (src/queue/work-back-off.ts): the time,
     * ISO 8601, before which queuing the work again does not run it. Set before onFailure.
     */
    nextTry?: string;
  };
}

export interface JobDefinition<P = unknown, R extends JobResult = JobResult> {
  name: string;
  queue: QueueName;
  payload: z.ZodType<P>;
  /**
   * The key of the lock the job runs under: jobs with the same key never run at the same time, in
   * any process. The space a job changes (`spc_1`), or another shared thing (`openapi/<org>/<slug>`).
   */
  lockKey?: (payload: P) => string | undefined;
  /**
   * How the job holds its lock key: `write` (the default) excludes every other job of the key;
   * `read`, for a job that only reads what the writers of its key change, excludes only the other
   * readers of the key, and never holds a writer back nor waits for one.
   */
  lock?: LockMode;
  run(ctx: JobContext, payload: P): Promise<R>;
  /**
   * One sentence for people about what a completed run did, kept in the event log that the status
   * page shows; undefined when it changed nothing worth showing (an unchanged import, a clean poll).
   */
  describe?(result: R, payload: P): string | undefined;
  /**
   * Keeps a failed run's reason where /status shows it. The runner calls it once per failed
   * attempt, after deciding whether the job is tried again, and never in a dry run, for an aborted
   * job (shutdown, lost lock) or a rate-limit pause. A failure of its own is logged, never thrown.
   */
  onFailure?(ctx: JobContext, payload: P, error: unknown): Promise<void>;
  /**
   * Tells the stores a run went through, ending the failures in a row that onFailure counted. The
   * runner calls it after a completed run, never in a dry run. A failure of its own is logged.
   */
  onSuccess?(ctx: JobContext, payload: P, result: R): Promise<void>;
}

/** What a processor of jobs/ adds to its kind: everything but the name, queue and payload schema. */
export type JobImplementation<P, R extends JobResult = JobResult> = Omit<
  JobDefinition<P, R>,
  'name' | 'queue' | 'payload'
>;

/**
 * The processor of a kind (src/queue/kinds/): its name, queue and payload schema are the kind's,
 * so the producer's handle and the worker can never disagree. The one-argument form is for
 * processors whose jobs docsync never queues itself (tests, benches).
 */
export function defineJob<P, R extends JobResult>(
  kind: JobKind<P, unknown>,
  implementation: JobImplementation<P, R>,
): JobDefinition<P, R>;
export function defineJob<P, R extends JobResult>(definition: JobDefinition<P, R>): JobDefinition<P, R>;
export function defineJob<P, R extends JobResult>(
  first: JobKind<P, unknown> | JobDefinition<P, R>,
  implementation?: JobImplementation<P, R>,
): JobDefinition<P, R> {
  if (implementation === undefined) return first as JobDefinition<P, R>;
  return { ...implementation, name: first.name, queue: first.queue, payload: first.payload };
}

/** A definition of any payload type, as the registry and the runner hold them. */
// biome-ignore lint/suspicious/noExplicitAny: the runner validates each payload with its own schema before use
export type AnyJobDefinition = JobDefinition<any, JobResult>;
