// What the runner adds to a processor's services, for unit tests: a silent logger, a signal that is
// never aborted, the job as the runner names it, and the outcomes a batch job records, in order.
import { pino } from 'pino';
import type { JobRun, RunningJob } from '../../src/queue/job-definition.js';
import type { UnitOutcome, WorkUnit } from '../../src/queue/work-unit.js';

export interface RecordedOutcome {
  unit: WorkUnit;
  outcome: UnitOutcome;
}

export function fakeJobRun(job: Pick<RunningJob, 'name' | 'queue'> & Partial<RunningJob>): {
  run: JobRun;
  outcomes: RecordedOutcome[];
} {
  const outcomes: RecordedOutcome[] = [];
  const run: JobRun = {
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
    job: { id: `${job.name}-1`, attempt: 1, maxAttempts: 3, ...job },
    recordOutcome: async (unit, outcome) => {
      outcomes.push({ unit, outcome });
    },
  };
  return { run, outcomes };
}
