// The context a processor gets: the process's dependencies plus the job's logger, signal and ids.
// Written field by field rather than spread from the dependencies: a spread followed by the job's
// own fields builds a slow object on every job, and `satisfies` below still fails to compile when
// a field of JobContext is left out, optional ones included.
import type { Logger } from '../log/create-logger.js';
import type { JobAbort } from './job-abort.js';
import type { JobContext, JobDeps } from './job-definition.js';

export function jobContext(
  deps: JobDeps,
  log: Logger,
  abort: Pick<JobAbort, 'signal'>,
  job: JobContext['job'],
): JobContext {
  return {
    config: deps.config,
    queues: deps.queues,
    now: deps.now,
    api: deps.api,
    stores: deps.stores,
    mirrorFor: deps.mirrorFor,
    artifacts: deps.artifacts,
    dryRun: deps.dryRun,
    metrics: deps.metrics,
    notify: deps.notify,
    log,
    // Made when read (src/queue/job-abort.ts).
    get signal() {
      return abort.signal;
    },
    job,
  } satisfies Record<keyof JobContext, unknown>;
}
