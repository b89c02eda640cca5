// What most processors need before they start, as permanent failures when it is missing: the
// mapping they were queued for (it may have left the configuration since), and the service client.
import type { DocsApiClient } from '../src/api/docs-api-client.js';
import type { Config } from '../src/config/config-schema.js';
import { mappingByName } from '../src/config/mapping-by-name.js';
import type { MappingConfig } from '../src/config/mapping-schema.js';
import { DocsyncError } from '../src/errors/docsync-error.js';

export function requireMapping(ctx: { config: Pick<Config, 'mappings'> }, name: string): MappingConfig {
  const mapping = mappingByName(ctx.config.mappings, name);
  if (mapping === undefined)
    throw new DocsyncError('MAPPING_UNKNOWN', `mapping ${name} is not in the configuration any more`);
  return mapping;
}

export function requireApi(ctx: { api: DocsApiClient | undefined; job: { name: string } }): DocsApiClient {
  if (ctx.api === undefined)
    throw new DocsyncError(
      'SERVICE_NOT_CONFIGURED',
      `${ctx.job.name} needs service.baseUrl and service.token in the configuration`,
    );
  return ctx.api;
}
