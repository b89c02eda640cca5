// The job's kind and its payload, read from what BullMQ handed over. A job no processor of this
// queue may run (an unknown name, another queue's job, a payload its schema refuses) fails for good
// here, with its metric and its log line, before any lock or service is touched.
import { type Job, UnrecoverableError } from 'bullmq';
import type { ErrorCode } from '../errors/error-codes.js';
import { PayloadError } from '../errors/payload-error.js';
import type { Logger } from '../log/create-logger.js';
import type { AnyJobDefinition } from './job-definition.js';
import type { RunnerMetrics } from './job-runner-options.js';
import type { QueueName } from './queue-names.js';
import type { LockMode } from './space-locks.js';

/** What the runner binds once per job kind, not per job. */
export interface RunnableKind {
  definition: AnyJobDefinition;
  /** The root logger with the kind's queue and name bound. */
  log: Logger;
  lock: LockMode;
  /** The services the definition names, built once. */
  services: object;
}

export interface AcceptJobContext {
  kinds: ReadonlyMap<string, RunnableKind>;
  metrics: RunnerMetrics;
  log: Logger;
  started: number;
}

export function acceptJob(
  context: AcceptJobContext,
  queue: QueueName,
  job: Job,
): { kind: RunnableKind; payload: unknown } {
  const { metrics, log, started } = context;
  const kind = context.kinds.get(job.name);
  const fields = { queue, job: String(job.id), name: job.name, attempt: job.attemptsMade + 1 };
  if (kind === undefined) {
    // A name no processor has comes from outside docsync: as a label it would be unbounded.
    metrics.jobFinished(queue, 'unknown', 'failed', Date.now() - started);
    log.error(
      { ...fields, result: 'failed', code: 'JOB_UNKNOWN' satisfies ErrorCode },
      'job failed permanently',
    );
    throw new UnrecoverableError(`JOB_UNKNOWN: no processor named ${job.name} on queue ${queue}`);
  }
  const { definition } = kind;
  // Queued by hand on another queue: running it here would bypass that queue's pause, rate
  // limit and concurrency, and its own queue's workers would never see it.
  if (definition.queue !== queue) {
    metrics.jobFinished(queue, definition.name, 'failed', Date.now() - started);
    log.error(
      {
        ...fields,
        result: 'failed',
        code: 'JOB_WRONG_QUEUE' satisfies ErrorCode,
        expectedQueue: definition.queue,
      },
      'job failed permanently',
    );
    throw new UnrecoverableError(
      `JOB_WRONG_QUEUE: job ${job.name} belongs on queue ${definition.queue}, not ${queue}`,
    );
  }
  const parsed = definition.payload.safeParse(job.data);
  if (!parsed.success) {
    const error = new PayloadError(job.name, parsed.error);
    metrics.jobFinished(queue, definition.name, 'failed', Date.now() - started);
    kind.log.error(
      { job: fields.job, attempt: fields.attempt, result: 'failed', code: error.code, issues: error.issues },
      'job failed permanently',
    );
    throw new UnrecoverableError(`${error.code}: ${error.message}`);
  }
  return { kind, payload: parsed.data };
}
