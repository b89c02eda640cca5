// The mappings part of /status: each mapping with its state (active, or paused and why), its last
// import and its last error.
import type { Config } from '../config/config-schema.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import type { MappingStateStore } from '../state/mapping-state.js';
import type { VerdictStore } from '../state/verdict-store.js';

export async function mappingStatuses(
  config: Pick<Config, 'mappings'>,
  store: MappingStateStore,
  verdicts?: VerdictStore,
) {
  return Promise.all(
    config.mappings.map(async (mapping) => {
      const [state, changeRequests] = await Promise.all([
        store.get(mapping.name),
        verdicts?.list(mapping.name) ?? [],
      ]);
      return {
        name: mapping.name,
        space: mapping.space,
        direction: mapping.direction,
        repo: redactUrlCredentials(mapping.git.repo),
        branch: mapping.git.branch,
        dir: mapping.git.dir,
        state: state.paused === undefined ? 'active' : 'paused',
        ...(state.paused === undefined ? {} : { paused: state.paused }),
        ...(state.lastImportedSha === undefined ? {} : { lastImportedSha: state.lastImportedSha }),
        ...(state.changeRequestId === undefined ? {} : { changeRequest: state.changeRequestId }),
        ...(state.lastImport === undefined ? {} : { lastImport: state.lastImport }),
        ...(state.lastError === undefined ? {} : { lastError: state.lastError }),
        ...(state.lastExport === undefined ? {} : { lastExport: state.lastExport }),
        ...(state.pendingConflict === undefined ? {} : { pendingConflict: state.pendingConflict }),
        changeRequests,
      };
    }),
  );
}
