// A processor's context for a test that runs it directly, without the runner: the services it is
// given plus what the runner adds (log, signal, job, recordOutcome), each with a default a test may
// replace. By default outcomes are kept as the daemon keeps them (src/state/record-outcome.ts), and
// not at all in a dry run, the runner's rule.
import type { Logger } from '../../src/log/create-logger.js';
import { jobContext } from '../../src/queue/job-context.js';
import type { JobContext, JobRun, RunningJob } from '../../src/queue/job-definition.js';
import { type OutcomeRecordContext, recordOutcome } from '../../src/state/record-outcome.js';
import { captureLog } from './test-context.js';

export interface TestRun {
  log?: Logger;
  signal?: AbortSignal;
  /** Merged over a first attempt of a job named `test-job` on the maintain queue. */
  job?: Partial<RunningJob>;
  recordOutcome?: JobRun['recordOutcome'];
}

export function testJobContext<S extends object>(services: S, run: TestRun = {}): JobContext<S> {
  const job: RunningJob = {
    id: 'test-job-1',
    name: 'test-job',
    queue: 'maintain',
    attempt: 1,
    maxAttempts: 1,
    ...run.job,
  };
  return jobContext(
    services,
    run.log ?? captureLog('warn').log,
    { signal: run.signal ?? new AbortController().signal },
    job,
    run.recordOutcome ?? keptAsTheDaemonKeepsThem(services, job),
  );
}

function keptAsTheDaemonKeepsThem(services: object, job: RunningJob): JobRun['recordOutcome'] {
  if (!isRecordContext(services))
    return async () => {
      throw new Error(
        'testJobContext: these services keep no outcomes (no config, stores and now): pass recordOutcome',
      );
    };
  const dryRun = 'dryRun' in services && services.dryRun === true;
  return async (unit, outcome) => {
    if (!dryRun) await recordOutcome(services, unit, outcome, job);
  };
}

function isRecordContext(services: object): services is OutcomeRecordContext {
  return 'config' in services && 'stores' in services && 'now' in services;
}
