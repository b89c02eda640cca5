// Mappings and OpenAPI specs by health state for /metrics, read from the state every process
// shares, by the same rule as /status (src/status/health-state.ts). A mapping whose state cannot
// be read is in no state: /status names it.
import type { Config } from '../config/config-schema.js';
import type { MappingStateStore } from '../state/mapping-state.js';
import type { OpenApiStateStore } from '../state/openapi-state-store.js';
import { healthSummary } from '../status/health-summary.js';
import { mappingStatuses } from '../status/mapping-statuses.js';
import { openApiStatuses } from '../status/openapi-statuses.js';
import type { HealthCounts } from './docsync-metrics.js';

export async function readHealthCounts(
  config: Pick<Config, 'mappings' | 'openapi' | 'health'>,
  stores: { mappings: MappingStateStore; openapi: OpenApiStateStore },
): Promise<HealthCounts> {
  const [mappings, specs] = await Promise.all([
    mappingStatuses(config, stores.mappings),
    openApiStatuses(config, stores.openapi),
  ]);
  const { mappings: mappingCounts, openapi } = healthSummary(mappings, specs);
  return { mappings: mappingCounts, openapi };
}
