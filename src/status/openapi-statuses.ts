// The OpenAPI part of /status: each spec with its source, schedule, the version docsync last
// made, the last refresh (result, problems or error) and the changelog of the last new version. A
// spec whose state cannot be read shows the reason; the others do not suffer from it.
import type { Config } from '../config/config-schema.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import type { OpenApiStateStore } from '../state/openapi-state-store.js';
import { errorMessage } from './status-part.js';

export async function openApiStatuses(config: Pick<Config, 'openapi'>, store: OpenApiStateStore) {
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
        return {
          ...identity,
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
