// The OpenAPI part of /status: each spec with its source, schedule, the version docsync last
// made, the last refresh (result, problems or error) and the changelog of the last new version.
import type { Config } from '../config/config-schema.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import type { OpenApiStateStore } from '../state/openapi-state-store.js';

export async function openApiStatuses(config: Pick<Config, 'openapi'>, store: OpenApiStateStore) {
  return Promise.all(
    config.openapi.map(async (spec) => {
      const state = await store.get(spec.org, spec.slug);
      const { source } = spec;
      return {
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
        ...(state.uploaded?.version === undefined ? {} : { version: state.uploaded.version }),
        ...(state.uploaded === undefined ? {} : { lastUploadAt: state.uploaded.at }),
        ...(state.lastRefresh === undefined ? {} : { lastRefresh: state.lastRefresh }),
        ...(state.lastVersion === undefined ? {} : { lastNewVersion: state.lastVersion }),
      };
    }),
  );
}
