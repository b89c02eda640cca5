// What a processor in jobs/ declares: its kind (name, queue, payload schema, what its outcome
// counts toward), the services it needs (the slice of them the daemon hands it, and nothing else),
// the key of the lock it runs under, and a plain async function. BullMQ workers wrap it; nothing in
// a processor knows about BullMQ, and nothing here knows what the services are.
import type { z } from 'zod';
import type { Logger } from '../log/create-logger.js';
import type { JobKind } from './job-kind.js';
import type { QueueName } from './queue-names.js';
import type { LockMode } from './space-locks.js';
import type { UnitOutcome, WorkUnit } from './work-unit.js';

/** What every processor returns: a short `result` word for the outcome log line, plus any details. */
export interface JobResult {
  result: string;
  /**
   * `false` for a run that did none of its unit's work (a tick that only waited out a jitter): it
   * ends no failures in a row.
   */
  counted?: false;
  [detail: string]: unknown;
}

/** The job a processor runs, as it reads it. */
export interface RunningJob {
  id: string;
  name: string;
  queue: QueueName;
  attempt: number;
  maxAttempts: number;
  /**
   * When the job failed for good and its work backs off (src/queue/work-back-off.ts): the time,
   * ISO 8601, before which queuing the work again does not run it. Set before its failure is recorded.
   */
  nextTry?: string;
}

/** What the runner adds to the services of every job. */
export interface JobRun {
  log: Logger;
  /** Aborted when docsync must stop before the job ends, or when the job's space lock is lost. */
  signal: AbortSignal;
  job: RunningJob;
  /**
   * Records how one unit of the job's work ended, under the runner's rule (nothing in a dry run):
   * for a job whose payload names several units (a batch), each as it ends. The runner records
   * the unit of its kind itself.
   */
  recordOutcome(unit: WorkUnit, outcome: UnitOutcome): Promise<void>;
}

/** A processor's context: the services it declared (`D`) and the run. */
export type JobContext<D = unknown> = D & JobRun;

export interface JobDefinition<P = unknown, R extends JobResult = JobResult, D = unknown> {
  name: string;
  queue: QueueName;
  payload: z.ZodType<P>;
  countsToward: JobKind<P, unknown>['countsToward'];
  /** The services the job is handed, by name: the daemon builds them and passes exactly these. */
  needs: readonly (keyof D & string)[];
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
  run(ctx: JobContext<D>, payload: P): Promise<R>;
  /**
   * One sentence for people about what a completed run did, kept in the event log that the status
   * page shows; undefined when it changed nothing worth showing (an unchanged import, a clean poll).
   */
  describe?(result: R, payload: P): string | undefined;
  /**
   * What a failed run changes besides its record, which the runner keeps (a failed import's commit
   * status). Called once per failed attempt under the runner's rule: never in a dry run, for an
   * aborted job (shutdown, lost lock) or a rate-limit pause. A failure of its own is logged.
   */
  afterFailure?(ctx: JobContext<D>, payload: P, error: unknown): Promise<void>;
}

/** What a processor adds to its kind and its needs. */
export type JobImplementation<P, R extends JobResult, D> = Omit<
  JobDefinition<P, R, D>,
  'name' | 'queue' | 'payload' | 'countsToward' | 'needs'
>;

/**
 * The processor of a kind: its name, queue, payload schema and what it counts toward are the
 * kind's, so the producer's handle and the worker can never disagree. jobs/define-job.ts names the
 * services; tests and benches that define their own jobs pass a whole definition.
 */
export function jobDefinition<P, R extends JobResult, D>(
  kind: JobKind<P, unknown>,
  needs: readonly (keyof D & string)[],
  implementation: JobImplementation<P, R, D>,
): JobDefinition<P, R, D> {
  return {
    ...implementation,
    name: kind.name,
    queue: kind.queue,
    payload: kind.payload,
    countsToward: kind.countsToward,
    needs,
  };
}

/** A definition of any payload and services, as the registry and the runner hold them. */
// biome-ignore lint/suspicious/noExplicitAny: the runner validates each payload with its own schema and hands each job the services it names
export type AnyJobDefinition = JobDefinition<any, JobResult, any>;
