// The context a processor gets: the services it declared, plus the job's logger, signal, ids and
// outcome recorder. The run's fields come first and the services are assigned one by one, in the
// same order for every job of a kind: a spread of the services followed by a getter builds an
// object in V8's slow mode, 5-10x the cost per job (measured beside this loop). The signal is made
// when read (src/queue/job-abort.ts).
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
  const run: JobRun = {
    log,
    get signal() {
      return abort.signal;
    },
    job,
    recordOutcome,
  };
  const context = run as unknown as Record<string, unknown>;
  for (const name of Object.keys(services)) context[name] = services[name as keyof D];
  return run as JobContext<D>;
}
