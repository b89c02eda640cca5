// The one rule of how a unit of work's outcomes are kept for /status and the health states, for
// every job (the runner calls it through src/daemon/job-outcomes.ts): a failure is counted per job
// in a row, with its code, message, hint and next try; a success ends the row. A unit that left
// the configuration gets no state: its failure (MAPPING_UNKNOWN, SPEC_UNKNOWN) is the job's alone.
import { mappingByName } from '../config/mapping-by-name.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { OpenApiConfig } from '../config/openapi-schema.js';
import { OpenApiInvalidError } from '../openapi/openapi-invalid-error.js';
import type { UnitOutcome, WorkUnit } from '../queue/work-unit.js';
import { failureOf } from './failure-of.js';
import type { Stores } from './stores.js';

export interface OutcomeRecordContext {
  config: { mappings: readonly MappingConfig[]; openapi: readonly OpenApiConfig[] };
  stores: Pick<Stores, 'mappings' | 'openapi'>;
  now: () => Date;
}

/** The job whose run ended: its failures in a row are counted apart from the unit's other jobs. */
export interface OutcomeJob {
  name: string;
  /** When the job failed for good and its work backs off: the next try /status shows. */
  nextTry?: string | undefined;
}

export async function recordOutcome(
  ctx: OutcomeRecordContext,
  unit: WorkUnit,
  outcome: UnitOutcome,
  job: OutcomeJob,
): Promise<void> {
  if ('mapping' in unit) await recordMappingOutcome(ctx, unit.mapping, outcome, job);
  else await recordSpecOutcome(ctx, unit.openapi, outcome);
}

async function recordMappingOutcome(
  ctx: OutcomeRecordContext,
  name: string,
  outcome: UnitOutcome,
  job: OutcomeJob,
): Promise<void> {
  const mapping = mappingByName(ctx.config.mappings, name);
  if (mapping === undefined) return;
  if (!('failed' in outcome)) return ctx.stores.mappings.recordSuccess(name, job.name);
  await ctx.stores.mappings.recordFailure(
    name,
    job.name,
    failureOf(outcome.failed, ctx.now(), { mapping }, job.nextTry),
  );
}

/**
 * A spec's refresh: a failure is its last refresh (invalid with its problems, or failed with its
 * code, reason and hint) and one more in a row; a success ends the row. The spec's lock is held:
 * no other refresh of it writes meanwhile.
 */
async function recordSpecOutcome(
  ctx: OutcomeRecordContext,
  unit: { org: string; slug: string; trigger: string },
  outcome: UnitOutcome,
): Promise<void> {
  const spec = ctx.config.openapi.find((item) => item.org === unit.org && item.slug === unit.slug);
  if (spec === undefined) return;
  if (!('failed' in outcome)) {
    const { failures } = await ctx.stores.openapi.summary(spec.org, spec.slug);
    if (failures !== undefined) await ctx.stores.openapi.update(spec.org, spec.slug, { failures: undefined });
    return;
  }
  const error = outcome.failed;
  const { at, ...reason } = failureOf(error, ctx.now(), { spec });
  const { failures } = await ctx.stores.openapi.get(spec.org, spec.slug);
  await ctx.stores.openapi.update(spec.org, spec.slug, {
    lastRefresh: {
      at,
      result: error instanceof OpenApiInvalidError ? 'invalid' : 'failed',
      trigger: unit.trigger,
      error: reason,
      ...(error instanceof OpenApiInvalidError ? { problems: [...error.problems] } : {}),
    },
    failures: { count: (failures?.count ?? 0) + 1, since: failures?.since ?? at },
  });
}
