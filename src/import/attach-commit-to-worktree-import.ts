// A working copy's import records no commit: its files are not in git yet. When the git poll then
// finds a commit holding that same content (an unchanged import), the commit is written into the
// origin of the change request's revision, and of the revision its merge made if it was merged
// already, as the import of that commit would have recorded it. Space to git learns from it which
// commit the space equals after the merge (the base its exports compare git with); without it, a
// merge of content first imported from a working copy left a two-way mapping with no base, or an
// older one. A merge the space poll has seen already gets its base here, under the space lock the
// import holds: the space poll does not look at a revision again.
import { ApiError } from '../api/api-error.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import { baseAfterMerge } from '../export/base-after-merge.js';
import type { GitMirror } from '../git/git-mirror.js';
import type { Logger } from '../log/create-logger.js';
import type { MappingStateStore } from '../state/mapping-state.js';

export interface AttachCommitDeps {
  api: DocsApiClient;
  state: MappingStateStore;
  mirrorFor: (repo: string) => GitMirror;
  log: Logger;
  signal: AbortSignal;
}

/**
 * Names `sha` in the origins of the change request's revisions. False when the change request could
 * not be read (the next commit of that content tries again); true otherwise.
 */
export async function attachCommitToWorktreeImport(
  deps: AttachCommitDeps,
  mapping: MappingConfig,
  changeRequestId: string,
  sha: string,
): Promise<boolean> {
  const { state, log } = deps;
  let changeRequest: Awaited<ReturnType<DocsApiClient['changeRequests']['get']>>;
  try {
    changeRequest = await deps.api.changeRequests.get(mapping.space, changeRequestId, {
      signal: deps.signal,
    });
  } catch (error) {
    // Gone from the service: nothing of it can be merged any more.
    if (error instanceof ApiError && error.status === 404) return true;
    // The import itself is done (nothing changed): this waits for the next look, not for a retry.
    log.warn(
      { err: error, cr: changeRequestId, sha },
      'change request unreadable: its revision names no commit yet',
    );
    return false;
  }
  const merged =
    changeRequest.status === 'merged' && changeRequest.revisionMerged !== undefined
      ? changeRequest.revisionMerged
      : undefined;
  const mergeOrigin = merged === undefined ? undefined : await state.revisionOrigin(mapping.space, merged);
  // The change request's own revision matters while it may still be merged, or while a merge by a
  // person is still to be recognised from it (its merged revision has no origin yet). Rewriting it
  // after would track a settled change request again.
  const revisions = merged === undefined || mergeOrigin === undefined ? [changeRequest.revision] : [];
  if (merged !== undefined) revisions.push(merged);
  for (const revision of revisions) {
    const origin = revision === merged ? mergeOrigin : await state.revisionOrigin(mapping.space, revision);
    // A revision a person made (no origin), or one already naming its commit, stays as it is.
    if (origin === undefined || origin.mapping !== mapping.name || origin.sha !== undefined) continue;
    await state.recordRevisionOrigin(mapping.space, revision, { ...origin, sha });
    log.info(
      { cr: changeRequestId, revision, sha },
      'the working copy content imported is now in a commit: its revision names that commit',
    );
  }
  // Only a merge of docsync's content has a base; a person's merge not recognised yet gets it from
  // the space poll, which reads the origins named above.
  if (merged === undefined || mergeOrigin === undefined || mergeOrigin.mapping !== mapping.name) return true;
  // The space poll saw the merge before its commit was known, and recorded it without this base.
  const now = await state.get(mapping.name);
  if (now.lastSeenRevision !== merged || (mergeOrigin.sha !== undefined && mergeOrigin.sha !== sha))
    return true;
  const base = await baseAfterMerge(
    deps.mirrorFor(mapping.git.repo),
    mapping.git.dir,
    sha,
    now.exportBase,
    deps.signal,
  );
  if (base !== now.exportBase) {
    await state.update(mapping.name, { exportBase: base });
    log.info({ revision: merged, exportBase: base }, 'export base taken from the commit the merge now names');
  }
  return true;
}
