// A working copy's import records no commit: its files are not in git yet. When the git poll then
// finds a commit holding that same content (an unchanged import), the commit is written into the
// origin of the change request's revision, and of the revision its merge made if it was merged
// already, as the import of that commit would have recorded it. Space to git learns from it which
// commit the space equals after the merge (the base its exports compare git with); without it, a
// merge of content first imported from a working copy left a two-way mapping with no base. A merged
// revision the space poll has seen already is handed back to it (its lastSeenRevision dropped), so
// that its next look takes the base from the commit now named.
import { ApiError } from '../api/api-error.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { Logger } from '../log/create-logger.js';
import type { MappingStateStore } from '../state/mapping-state.js';

/** Names `sha` in the origins of the change request's revisions; resolves with those it changed. */
export async function attachCommitToWorktreeImport(
  deps: { api: DocsApiClient; state: MappingStateStore; log: Logger; signal: AbortSignal },
  mapping: MappingConfig,
  changeRequestId: string,
  sha: string,
): Promise<string[]> {
  let changeRequest: Awaited<ReturnType<DocsApiClient['changeRequests']['get']>>;
  try {
    changeRequest = await deps.api.changeRequests.get(mapping.space, changeRequestId, {
      signal: deps.signal,
    });
  } catch (error) {
    // Gone from the service: nothing of it can be merged any more.
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
  const revisions = [changeRequest.revision];
  if (changeRequest.status === 'merged' && changeRequest.revisionMerged !== undefined)
    revisions.push(changeRequest.revisionMerged);
  const named: string[] = [];
  for (const revision of revisions) {
    const origin = await deps.state.revisionOrigin(mapping.space, revision);
    // A revision a person made (no origin), or one already naming its commit, stays as it is.
    if (origin === undefined || origin.mapping !== mapping.name || origin.sha !== undefined) continue;
    await deps.state.recordRevisionOrigin(mapping.space, revision, { ...origin, sha });
    named.push(revision);
    deps.log.info(
      { cr: changeRequestId, revision, sha },
      'the working copy content imported is now in a commit: its revision names that commit',
    );
  }
  return named;
}
