// The health of a mapping or an OpenAPI spec, from what the stores keep: `paused` while a person
// must act (`docsync resume`), `failing` once one of its jobs failed `failingAfter` times in a row,
// `degraded` after fewer (still retried), `ok` otherwise. Pure.
import { z } from 'zod';
import { type FailureRun, failureRunSchema } from '../state/mapping-state.js';

export const HEALTH_STATES = ['ok', 'degraded', 'failing', 'paused'] as const;

export type HealthState = (typeof HEALTH_STATES)[number];

/** One job failing in a row (of a mapping, or a spec's refresh), as /status shows it. */
export const jobFailuresSchema = failureRunSchema.extend({ job: z.string() });

export type JobFailures = z.infer<typeof jobFailuresSchema>;

export function healthOf(
  paused: boolean,
  failures: readonly Pick<FailureRun, 'count'>[],
  failingAfter: number,
): HealthState {
  if (paused) return 'paused';
  const most = Math.max(0, ...failures.map((run) => run.count));
  if (most >= failingAfter) return 'failing';
  return most > 0 ? 'degraded' : 'ok';
}

/** A mapping's failing jobs, the most failures in a row first. */
export function jobFailures(runs: Readonly<Record<string, FailureRun>> | undefined): JobFailures[] {
  return Object.entries(runs ?? {})
    .map(([job, run]) => ({ job, ...run }))
    .sort((a, b) => b.count - a.count || a.job.localeCompare(b.job));
}
