// Whether a two-way mapping's space holds service edits that no export has brought to git yet:
// importing git's folder then, or merging a change request of it, would take them out again.
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import { pendingExport } from '../state/export-pending.js';
import type { MappingState, MappingStateStore } from '../state/mapping-state.js';

export interface UnexportedRevisionDeps {
  api: DocsApiClient;
  state: Pick<MappingStateStore, 'revisionOrigin'>;
  signal: AbortSignal;
}

/**
 * The revision whose service edits no export has brought to git yet, if any: an export queued and not
 * finished (whatever revision the space is at now: a merge of docsync's change request carries what
 * the main content held), or the space's current revision when it is not docsync's own, not
 * exported, and either not seen by the space poll or queued for export by it (a revision the poll
 * recorded as the baseline is not an edit).
 */
export async function unexportedRevision(
  deps: UnexportedRevisionDeps,
  mapping: MappingConfig,
  state: MappingState,
): Promise<string | undefined> {
  const queued = pendingExport(state);
  if (queued !== undefined) return queued;
  const { revision } = await deps.api.spaces.get(mapping.space, { signal: deps.signal });
  if (state.lastExport?.revision === revision) return undefined;
  if (state.lastSeenRevision === revision && state.exportQueued !== revision) return undefined;
  if ((await deps.state.revisionOrigin(mapping.space, revision)) !== undefined) return undefined;
  return revision;
}
