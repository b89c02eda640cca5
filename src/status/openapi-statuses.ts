// The OpenAPI part of /status: each spec with its health (src/status/health-state.ts) and its
// refreshes failing in a row, its source, schedule, the version docsync last made, the last refresh
// (result, problems or error) and the changelog of the last new version. A spec whose state cannot
// be read shows the reason; the others do not suffer from it.
import type { Config } from '../config/config-schema.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import type { OpenApiStateStore, OpenApiSummary } from '../state/openapi-state-store.js';
import { healthOf, type JobFailures } from './health-state.js';
import { errorMessage } from './status-part.js';

export type SpecStatus = Awaited<ReturnType<typeof openApiStatuses>>[number];

export async function openApiStatuses(config: Pick<Config, 'openapi' | 'health'>, store: OpenApiStateStore) {
  return Promise.all(
    config.openapi.map(async (spec) => {
      const { source } = spec;
      const identity = {
        org: spec.org,
        slug: spec.slug,
        source:
          typeof source === 'string'
            ? redactUrlCredentials(source)
            : 'file' in source
              ? source.file
              : `${source.mapping}:${source.path}`,
        upload: spec.upload,
        schedule: spec.every !== undefined ? { every: spec.every } : { pattern: spec.pattern, tz: spec.tz },
      };
      try {
        const state = await store.summary(spec.org, spec.slug);
        const failures = refreshFailures(state);
        return {
          ...identity,
          state: healthOf(false, failures, config.health.failingAfter),
          failures,
          ...(state.uploaded?.title === undefined ? {} : { title: state.uploaded.title }),
          ...(state.uploaded?.version === undefined ? {} : { version: state.uploaded.version }),
          ...(state.uploaded === undefined ? {} : { lastUploadAt: state.uploaded.at }),
          ...(state.lastRefresh === undefined ? {} : { lastRefresh: state.lastRefresh }),
          ...(state.lastVersion === undefined ? {} : { lastNewVersion: state.lastVersion }),
        };
      } catch (error) {
        return { ...identity, error: errorMessage(error) };
      }
    }),
  );
}

/** The refreshes failing in a row, as one failing job whose last failure is the last refresh. */
function refreshFailures({ failures, lastRefresh }: OpenApiSummary): JobFailures[] {
  if (failures === undefined) return [];
  const error = lastRefresh?.error ?? { code: 'FAILED', message: 'the log says why' };
  return [{ job: 'refresh-openapi', ...failures, last: { at: lastRefresh?.at ?? failures.since, ...error } }];
}
