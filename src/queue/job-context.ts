// The context a processor gets: the services it declared, plus the job's logger, signal, ids and
// outcome recorder. The signal is made when read (src/queue/job-abort.ts).
import type { Logger } from '../log/create-logger.js';
import type { JobAbort } from './job-abort.js';
import type { JobContext, JobRun, RunningJob } from './job-definition.js';

export function jobContext<D extends object>(
  services: D,
  log: Logger,
  abort: Pick<JobAbort, 'signal'>,
  job: RunningJob,
  recordOutcome: JobRun['recordOutcome'],
): JobContext<D> {
  return {
    ...services,
    log,
    get signal() {
      return abort.signal;
    },
    job,
    recordOutcome,
  };
}
