// What the job runner is handed from the process's services: each job's slice of them (exactly
// the ones it names), the queues, and the ports it reports through. The one place where the
// generic queue layer meets docsync's services.
import { type JobServices, pickServices } from '../../jobs/job-services.js';
import type { JobRunnerOptions } from '../queue/job-runner-options.js';
import { jobOutcomes } from './job-outcomes.js';

export type RunnerPorts = Pick<
  JobRunnerOptions,
  'servicesFor' | 'queues' | 'outcomes' | 'metrics' | 'dryRun' | 'now'
>;

export function runnerPorts(services: JobServices): RunnerPorts {
  return {
    servicesFor: (definition) => pickServices(services, definition.needs),
    queues: services.queues,
    outcomes: jobOutcomes(services),
    metrics: services.metrics,
    dryRun: services.dryRun,
    now: services.now,
  };
}
