// A job's processor, defined from its kind and the services it needs: the names are checked against
// the services docsync has (jobs/job-services.ts), and the processor's context has those and no
// others, so that a job reaching for a service it did not declare does not compile. A job whose
// work people wait for (an import, a merge) says `servicePriority: 'high'`: its reads of the
// service go before scheduled polls' when the shared budget runs low (src/api/request-priority.ts).

import { type RequestPriority, withRequestPriority } from '../src/api/request-priority.js';
import {
  type JobDefinition,
  type JobImplementation,
  type JobResult,
  jobDefinition,
} from '../src/queue/job-definition.js';
import type { JobKind } from '../src/queue/job-kind.js';
import type { ServiceName, ServicesOf } from './job-services.js';

export interface JobOptions {
  /** The priority of every request the job makes to the service; reads are low by default. */
  servicePriority?: RequestPriority;
}

export function defineJob<P, R extends JobResult, const N extends readonly ServiceName[]>(
  kind: JobKind<P, unknown>,
  needs: N,
  definition: JobImplementation<P, R, ServicesOf<N>> & JobOptions,
): JobDefinition<P, R, ServicesOf<N>> {
  const { servicePriority, ...implementation } = definition;
  if (servicePriority === undefined) return jobDefinition(kind, needs, implementation);
  const { run } = implementation;
  return jobDefinition(kind, needs, {
    ...implementation,
    run: (ctx, payload) => withRequestPriority(servicePriority, () => run(ctx, payload)),
  });
}
