// The git poll's state found again when Redis lost it: the last imported commit (so that a commit
// already in the space, open or merged, is not imported into a second change request) and the
// change request docsync keeps (tracked with its commit, so that a person's merge of it is exported
// on that commit as its base). Nothing is found for a mapping that never imported: it imports.
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import type { GitMirror } from '../git/git-mirror.js';
import { subjectMarker } from '../import/change-request-subject.js';
import type { Logger } from '../log/create-logger.js';
import type { MappingState, MappingStatePatch, MappingStateStore } from '../state/mapping-state.js';
import { type RecoveredImports, recoverImports } from './recover-imports.js';

export interface RecoverImportStateInput {
  api: DocsApiClient;
  store: MappingStateStore;
  mirror: GitMirror;
  mapping: MappingConfig;
  head: string;
  /** The state read, without `lastImportedSha`. */
  state: MappingState;
  signal: AbortSignal;
  dryRun: boolean;
  log: Logger;
  now: () => Date;
  /** What was read already (the space poll reads it for itself first). */
  imports?: RecoveredImports;
}

/**
 * Nothing of the imports is known, and the service was not asked yet: Redis lost the state, or the
 * mapping never imported. Not so after `docsync resume` of a force-push, which drops only the last
 * imported commit.
 */
export function importStateLost(state: MappingState): boolean {
  return (
    state.lastImportedSha === undefined &&
    state.lastContent === undefined &&
    state.lastImport === undefined &&
    state.paused === undefined &&
    state.importsLookedUp === undefined
  );
}

/** The state with what was found again (written to the store, but in a dry run). */
export async function recoverImportState(input: RecoverImportStateInput): Promise<MappingState> {
  const { mapping, state } = input;
  let recovered: RecoveredImports;
  try {
    recovered =
      input.imports ??
      (await recoverImports({
        api: input.api,
        mirror: input.mirror,
        space: mapping.space,
        marker: subjectMarker(mapping.name, mapping.git.branch),
        head: input.head,
        dir: mapping.git.dir,
        signal: input.signal,
      }));
  } catch (error) {
    // A passing fault (a 5xx, the network, a page that is not JSON) fails the poll, whose next tick
    // looks again: importing meanwhile could open a second change request for content the space
    // holds. A lasting one (a refused token) is what the import meets too, retried and shown there.
    if (input.signal.aborted || !(error instanceof DocsyncError) || error.retryable) throw error;
    input.log.warn({ mapping: mapping.name, err: error }, 'import state could not be found again');
    return state;
  }
  // Looked once: a mapping that never imported (or whose first imports fail) is not looked up again
  // at every poll.
  const patch: MappingStatePatch = { importsLookedUp: true };
  if (recovered.lastImported !== undefined) patch.lastImportedSha = recovered.lastImported.sha;
  // Rewritten history is never imported silently, whether Redis kept the pause or not.
  if (recovered.rewritten !== undefined)
    patch.paused = {
      reason: 'force-push',
      detail: `the branch no longer contains ${recovered.rewritten.named}, the commit change request ${recovered.rewritten.changeRequest.number} imported`,
      at: input.now().toISOString(),
    };
  const open = recovered.open;
  if (open !== undefined && state.changeRequestId === undefined)
    patch.changeRequestId = open.changeRequest.id;

  if (!input.dryRun) {
    if (open !== undefined) {
      const tracked = await input.store.trackedChangeRequests(mapping.name);
      if (!tracked.some((entry) => entry.id === open.changeRequest.id))
        await input.store.trackChangeRequest(mapping.name, open.changeRequest.id, open.sha);
    }
    await input.store.update(mapping.name, patch);
  }
  if (patch.lastImportedSha === undefined && patch.paused === undefined && open === undefined) return state;
  const logged = (fields: Record<string, unknown>, message: string) =>
    patch.paused === undefined ? input.log.info(fields, message) : input.log.warn(fields, message);
  logged(
    {
      mapping: mapping.name,
      lastImportedSha: patch.lastImportedSha,
      paused: patch.paused?.detail,
      changeRequest: recovered.lastImported?.changeRequest.number,
      keptChangeRequest: open?.changeRequest.number,
    },
    'import state found again from the service',
  );
  return { ...state, ...(patch as Partial<MappingState>) };
}
