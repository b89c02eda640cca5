// How the runner's ends of jobs are written, built by the daemon over the process's services: each
// unit's outcome under the one rule (src/state/record-outcome.ts), the event log for people, and
// the webhooks of `notify:` for a job that failed for good.
import type { JobServices } from '../../jobs/job-services.js';
import { failedJobEvent } from '../notify/failed-job-event.js';
import type { JobOutcomes } from '../queue/job-outcomes.js';
import { recordOutcome } from '../state/record-outcome.js';

export function jobOutcomes(
  services: Pick<JobServices, 'config' | 'stores' | 'now' | 'notify'>,
): JobOutcomes {
  return {
    record: (unit, outcome, job) => recordOutcome(services, unit, outcome, job),
    event: async (run, result, summary) => {
      const { mapping } = (run.payload ?? {}) as { mapping?: unknown };
      await services.stores.events.record({
        at: services.now().toISOString(),
        queue: run.queue,
        job: run.job.name,
        result: result.result,
        summary,
        ...(typeof mapping === 'string' ? { mapping } : {}),
        // The event's space is the lock key: the space of the jobs that change one.
        ...(run.space === undefined ? {} : { space: run.space }),
      });
    },
    failedForGood: async (run, error) => {
      if (services.notify === undefined) return;
      const event = failedJobEvent({
        id: run.job.id,
        name: run.job.name,
        payload: run.payload,
        space: run.space,
        error,
        at: services.now(),
      });
      if (event !== undefined) await services.notify(event);
    },
  };
}
