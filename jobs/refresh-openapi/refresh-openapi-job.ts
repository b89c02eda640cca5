// refresh-openapi: re-upload one OpenAPI spec from its source when, and only when, it holds new
// valid content (src/openapi/refresh-openapi-spec.ts). Run by the spec's job scheduler (after its
// jitter), and at once when the git poll sees a commit touching a spec kept in a mapped repository.
import type { OpenApiConfig } from '../../src/config/openapi-schema.js';
import { DocsyncError } from '../../src/errors/docsync-error.js';
import { OpenApiInvalidError } from '../../src/openapi/openapi-invalid-error.js';
import { openApiSourceReader } from '../../src/openapi/openapi-source-reader.js';
import { refreshOpenApiSpec } from '../../src/openapi/refresh-openapi-spec.js';
import { jitterOf } from '../../src/openapi/spec-jitter.js';
import { defineJob } from '../define-job.js';
import type { ServicesOf } from '../job-services.js';
import { refreshOpenApiKind } from './refresh-openapi-kind.js';

const NEEDS = ['config', 'api', 'stores', 'mirrorFor', 'queues', 'now', 'dryRun', 'metrics'] as const;

/** What a refresh touches: the spec's source (a file, a URL, a mirror), the service, its state, metrics. */
export type RefreshOpenApiServices = ServicesOf<typeof NEEDS>;

export const refreshOpenApiJob = defineJob(refreshOpenApiKind, NEEDS, {
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
      // A tick that only waits out the jitter refreshed nothing: it ends no failures in a row.
      return { result: 'delayed' as const, delayMs, counted: false as const };
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

function requireSpec(ctx: Pick<RefreshOpenApiServices, 'config'>, org: string, slug: string): OpenApiConfig {
  const spec = ctx.config.openapi.find((item) => item.org === org && item.slug === slug);
  if (spec === undefined)
    throw new DocsyncError(
      'SPEC_UNKNOWN',
      `OpenAPI spec ${org}/${slug} is not in the configuration any more`,
    );
  return spec;
}
