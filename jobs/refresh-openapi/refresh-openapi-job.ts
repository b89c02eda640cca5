// refresh-openapi: re-upload one OpenAPI spec from its source when, and only when, it holds new
// valid content (src/openapi/refresh-openapi-spec.ts). Run by the spec's job scheduler (after its
// jitter), and at once when the git poll sees a commit touching a spec kept in a mapped repository.
import type { OpenApiConfig } from '../../src/config/openapi-schema.js';
import { DocsyncError } from '../../src/errors/docsync-error.js';
import { OpenApiInvalidError } from '../../src/openapi/openapi-invalid-error.js';
import { openApiSourceReader } from '../../src/openapi/openapi-source-reader.js';
import { refreshOpenApiSpec } from '../../src/openapi/refresh-openapi-spec.js';
import { jitterOf } from '../../src/openapi/spec-jitter.js';
import { defineJob, type JobContext } from '../../src/queue/job-definition.js';
import { refreshOpenApiKind } from './refresh-openapi-kind.js';
import { failureOf } from '../../src/state/failure-of.js';

export const refreshOpenApiJob = defineJob(refreshOpenApiKind, {
  // One refresh of a spec at a time, in all processes: a tick and a git-triggered run would both
  // find the content new and upload it twice.
  lockKey: (payload) => `openapi/${payload.org}/${payload.slug}`,
  async run(ctx, payload) {
    const spec = requireSpec(ctx, payload.org, payload.slug);
    if (payload.trigger === 'schedule' && spec.jitter > 0) {
      const delayMs = jitterOf(`${spec.org}/${spec.slug}`, spec.jitter);
      await refreshOpenApiKind.enqueue(
        ctx.queues,
        { org: spec.org, slug: spec.slug, trigger: 'tick' },
        { reason: ctx.job.id, delay: delayMs },
      );
      return { result: 'delayed' as const, delayMs };
    }
    try {
      const reader = openApiSourceReader(spec, {
        mappings: ctx.config.mappings,
        mirrorFor: ctx.mirrorFor,
        cwd: process.cwd(),
      });
      const outcome = await refreshOpenApiSpec({
        spec,
        reader,
        api: ctx.api,
        store: ctx.stores.openapi,
        log: ctx.log,
        now: ctx.now,
        signal: ctx.signal,
        dryRun: ctx.dryRun,
        trigger: payload.trigger,
      });
      ctx.metrics.openApiRefresh(spec.org, spec.slug, outcome.result);
      if (outcome.result === 'uploaded') ctx.metrics.openApiVersion(spec.org, spec.slug);
      return { ...outcome };
    } catch (error) {
      if (!ctx.signal.aborted)
        ctx.metrics.openApiRefresh(
          spec.org,
          spec.slug,
          error instanceof OpenApiInvalidError ? 'invalid' : 'failed',
        );
      throw error;
    }
  },
  onFailure: async (ctx, payload, error) => {
    const spec = ctx.config.openapi.find((item) => item.org === payload.org && item.slug === payload.slug);
    // A spec that left the configuration gets no state: its failure (SPEC_UNKNOWN) is the job's alone.
    if (spec !== undefined) await recordFailure(ctx, spec, payload.trigger, error);
  },
  // A tick that only waits out the jitter refreshed nothing: it ends no failures in a row.
  onSuccess: async (ctx, payload, outcome) => {
    if (outcome.result === 'delayed') return;
    const { failures } = await ctx.stores.openapi.summary(payload.org, payload.slug);
    if (failures !== undefined)
      await ctx.stores.openapi.update(payload.org, payload.slug, { failures: undefined });
  },
  describe(outcome, payload) {
    const spec = `${payload.org}/${payload.slug}`;
    if (outcome.result === 'uploaded') {
      const { added, removed, changed, changedVia } = outcome.changes;
      const via = changedVia.length === 0 ? '' : ` (~${changedVia.length} through shared components)`;
      return `uploaded spec ${spec}: version ${outcome.version ?? '(none given)'}, operations +${added.length} -${removed.length} ~${changed.length}${via}`;
    }
    if (outcome.result === 'no-new-version')
      return `uploaded spec ${spec}: the service kept version ${outcome.version ?? '(none given)'}`;
    return undefined;
  },
});

function requireSpec(ctx: Pick<JobContext, 'config'>, org: string, slug: string): OpenApiConfig {
  const spec = ctx.config.openapi.find((item) => item.org === org && item.slug === slug);
  if (spec === undefined)
    throw new DocsyncError(
      'SPEC_UNKNOWN',
      `OpenAPI spec ${org}/${slug} is not in the configuration any more`,
    );
  return spec;
}

/**
 * The failure as /status shows it: invalid with its problems, or failed with its code, reason and
 * hint; one more in a row. The spec's lock is held: no other refresh of it writes meanwhile.
 */
async function recordFailure(
  ctx: Pick<JobContext, 'now' | 'stores'>,
  spec: OpenApiConfig,
  trigger: string,
  error: unknown,
): Promise<void> {
  const { at, ...reason } = failureOf(error, ctx.now(), { spec });
  const { failures } = await ctx.stores.openapi.get(spec.org, spec.slug);
  await ctx.stores.openapi.update(spec.org, spec.slug, {
    lastRefresh: {
      at,
      result: error instanceof OpenApiInvalidError ? 'invalid' : 'failed',
      trigger,
      error: reason,
      ...(error instanceof OpenApiInvalidError ? { problems: [...error.problems] } : {}),
    },
    failures: { count: (failures?.count ?? 0) + 1, since: failures?.since ?? at },
  });
}
