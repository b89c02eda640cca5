// A job's processor, defined from its kind and the services it needs: the names are checked against
// the services docsync has (jobs/job-services.ts), and the processor's context has those and no
// others, so that a job reaching for a service it did not declare does not compile.

import {
  type JobDefinition,
  type JobImplementation,
  type JobResult,
  jobDefinition,
} from '../src/queue/job-definition.js';
import type { JobKind } from '../src/queue/job-kind.js';
import type { ServiceName, ServicesOf } from './job-services.js';

export function defineJob<P, R extends JobResult, const N extends readonly ServiceName[]>(
  kind: JobKind<P, unknown>,
  needs: N,
  implementation: JobImplementation<P, R, ServicesOf<N>>,
): JobDefinition<P, R, ServicesOf<N>> {
  return jobDefinition(kind, needs, implementation);
}
