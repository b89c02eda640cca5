// At start, before the producers: the derived single-branch mappings of every branches mapping, from
// the versions state in Redis, put into config.mappings, so that their schedulers are kept and their
// jobs find them. A reconcile changes them afterwards (jobs/reconcile-versions.ts).
import type { Config } from '../config/config-schema.js';
import { derivedMappings, replaceDerivedMappings } from './derived-mappings.js';
import type { VersionStateStore } from './version-state.js';

export async function expandBranchMappings(
  config: Pick<Config, 'mappings' | 'branchMappings'>,
  store: VersionStateStore,
): Promise<void> {
  for (const mapping of config.branchMappings) {
    const state = await store.get(mapping.name);
    replaceDerivedMappings(config.mappings, mapping, derivedMappings(mapping, state));
  }
}
