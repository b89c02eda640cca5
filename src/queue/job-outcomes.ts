// Where the runner reports how jobs ended, implemented by the daemon (src/daemon/job-outcomes.ts)
// over docsync's stores and webhooks: the queue layer decides when (its one rule: never in a dry
// run, never for an aborted job), the daemon what is written.
import type { JobResult, RunningJob } from './job-definition.js';
import type { QueueName } from './queue-names.js';
import type { UnitOutcome, WorkUnit } from './work-unit.js';

/** A run that ended, as the daemon's records read it. */
export interface EndedRun {
  queue: QueueName;
  job: RunningJob;
  payload: unknown;
  /** The lock key: the space of the jobs that change one, the event's space. */
  space: string | undefined;
}

export interface JobOutcomes {
  /** How one unit of work ended: a failure counted in a row, or the success that ends them. */
  record(unit: WorkUnit, outcome: UnitOutcome, job: Pick<RunningJob, 'name' | 'nextTry'>): Promise<void>;
  /** One sentence for people about what a completed run did, in the event log. */
  event(run: EndedRun, result: JobResult, summary: string): Promise<void>;
  /** A job failed for good: whoever wants to hear is told (the webhooks of `notify:`). */
  failedForGood(run: EndedRun, error: unknown): Promise<void>;
}
