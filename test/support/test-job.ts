// A processor a test (or a test's child process) defines whole, with no kind file: the payload's
// type comes from its schema, and it is handed no service and counts toward nothing unless it
// says so, where jobs/define-job.ts takes the name, queue, schema and countsToward from a kind.
import type { z } from 'zod';
import type { ServiceName, ServicesOf } from '../../jobs/job-services.js';
import type { JobDefinition, JobImplementation, JobResult } from '../../src/queue/job-definition.js';
import type { JobKindSpec } from '../../src/queue/job-kind.js';
import type { QueueName } from '../../src/queue/queue-names.js';

export type TestJobSpec<P, R extends JobResult, N extends readonly ServiceName[]> = JobImplementation<
  P,
  R,
  ServicesOf<N>
> & {
  name: string;
  queue: QueueName;
  payload: z.ZodType<P>;
  needs?: N;
  countsToward?: JobKindSpec<P, unknown>['countsToward'];
};

export function testJob<P, R extends JobResult, const N extends readonly ServiceName[] = readonly []>(
  spec: TestJobSpec<P, R, N>,
): JobDefinition<P, R, ServicesOf<N>> {
  const { needs = [], countsToward = false, ...definition } = spec;
  return { ...definition, needs, countsToward };
}
