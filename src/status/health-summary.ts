// The headline of /status, the status page and `docsync status`: how many mappings and specs are
// in each health state, and the problems, each naming what and why: a mapping or spec failing,
// degraded or paused, or a part of the status that could not be read. Pure.
import { z } from 'zod';
import { ERROR_CODES } from '../errors/error-codes.js';
import { WRITES_REFUSED_REASON } from '../redis/redis-write-refusal.js';
import { failureSchema } from '../state/mapping-state.js';
import { HEALTH_STATES, type HealthState, type JobFailures, jobFailuresSchema } from './health-state.js';
import type { PartError } from './status-part.js';

const countsSchema = z.object({
  ok: z.number(),
  degraded: z.number(),
  failing: z.number(),
  paused: z.number(),
});

/** A problem: what (kind, name), its state, and why: the job failing most in a row, its last failure. */
export const healthProblemSchema = jobFailuresSchema
  .pick({ job: true, count: true, since: true })
  .extend(failureSchema.pick({ code: true, message: true, hint: true, nextTry: true }).shape)
  .partial()
  .extend({
    /** `mapping`, `spec`, or `status` for a part of the status that could not be read. */
    kind: z.string(),
    /** The mapping's name, the spec's `org/slug`, or the part's name. */
    name: z.string(),
    /** failing, degraded, paused, or unreadable. */
    state: z.string(),
  });

export const healthSummarySchema = z.object({
  problems: z.array(healthProblemSchema),
  mappings: countsSchema,
  openapi: countsSchema,
});

export type HealthProblem = z.infer<typeof healthProblemSchema>;
export type HealthSummary = z.infer<typeof healthSummarySchema>;
type HealthCounts = z.infer<typeof countsSchema>;

/** What the summary reads of a mapping or spec of /status. */
export interface HealthRow {
  state?: HealthState | undefined;
  error?: string | undefined;
  failures?: readonly JobFailures[] | undefined;
  paused?: { reason: string; detail: string; at: string } | undefined;
}

const REDIS_WRITES_REFUSED_PROBLEM: HealthProblem = {
  kind: 'redis',
  name: 'server',
  state: 'failing',
  code: 'REDIS_WRITES_REFUSED',
  message: WRITES_REFUSED_REASON,
  hint: ERROR_CODES.REDIS_WRITES_REFUSED,
};

/** Worst first: what stopped working, what cannot be read, what waits for a person, what retries. */
const SEVERITY = ['failing', 'unreadable', 'paused', 'degraded'];

/** `redisWrites`: `refused` when Redis answers MISCONF (its disk full), a problem of every mapping at once. */
export function healthSummary(
  mappings: readonly (HealthRow & { name: string })[] | PartError,
  specs: readonly (HealthRow & { org: string; slug: string })[] | PartError,
  redisWrites: 'ok' | 'refused' = 'ok',
): HealthSummary {
  const problems = [
    ...(redisWrites === 'refused' ? [REDIS_WRITES_REFUSED_PROBLEM] : []),
    ...rowProblems('mapping', 'mappings', mappings, (mapping) => mapping.name),
    ...rowProblems('spec', 'openapi', specs, (spec) => `${spec.org}/${spec.slug}`),
  ].sort((a, b) => SEVERITY.indexOf(a.state) - SEVERITY.indexOf(b.state));
  return { problems, mappings: countStates(mappings), openapi: countStates(specs) };
}

function rowProblems<R extends HealthRow>(
  kind: string,
  part: string,
  rows: readonly R[] | PartError,
  nameOf: (row: R) => string,
): HealthProblem[] {
  if (!Array.isArray(rows))
    return [{ kind: 'status', name: part, state: 'unreadable', message: (rows as PartError).error }];
  return rows.flatMap((row): HealthProblem[] => {
    const name = nameOf(row);
    if (row.error !== undefined || row.state === undefined)
      return [
        {
          kind,
          name,
          state: 'unreadable',
          code: 'STATE_INVALID',
          hint: ERROR_CODES.STATE_INVALID,
          ...(row.error === undefined ? {} : { message: row.error }),
        },
      ];
    if (row.state === 'ok') return [];
    if (row.state === 'paused')
      return [
        {
          kind,
          name,
          state: 'paused',
          ...(row.paused === undefined
            ? {}
            : { code: row.paused.reason, message: row.paused.detail, since: row.paused.at }),
          hint: `run docsync resume ${name} once the reason is dealt with`,
        },
      ];
    const [worst] = row.failures ?? [];
    if (worst === undefined) return [{ kind, name, state: row.state }];
    const { code, message, hint, nextTry } = worst.last;
    const advice = [hint, nextTry === undefined ? undefined : retryAdvice(kind, name)].filter(
      (part) => part !== undefined,
    );
    return [
      {
        kind,
        name,
        state: row.state,
        job: worst.job,
        count: worst.count,
        since: worst.since,
        code,
        message,
        ...(advice.length === 0 ? {} : { hint: advice.join('; ') }),
        ...(nextTry === undefined ? {} : { nextTry }),
      },
    ];
  });
}

/** Work that backs off waits for its next try: how a person has it tried now instead. */
function retryAdvice(kind: string, name: string): string {
  const which = kind === 'mapping' ? `--mapping ${name}` : '--all-failed';
  return `once that is fixed, docsync retry ${which} tries it now (so does a restart)`;
}

function countStates(rows: readonly HealthRow[] | PartError): HealthCounts {
  const counts: HealthCounts = { ok: 0, degraded: 0, failing: 0, paused: 0 };
  if (!Array.isArray(rows)) return counts;
  for (const row of rows as readonly HealthRow[])
    if (row.state !== undefined && (HEALTH_STATES as readonly string[]).includes(row.state))
      counts[row.state] += 1;
  return counts;
}
