// Whether a change request's revision is content docsync made (an import, or an update of one),
// so that what it becomes (an update, a merge) is docsync's too and space to git skips it. A person's
// edit in the service gives a revision with no recorded origin.
import type { MappingStateStore, RevisionOrigin } from '../state/mapping-state.js';

export async function carryOrigin(
  store: MappingStateStore,
  space: string,
  from: string,
  to: string,
  origin: Omit<RevisionOrigin, 'sha'>,
): Promise<boolean> {
  const source = await store.revisionOrigin(space, from);
  if (source === undefined) return false;
  // The commit travels along: a merged import tells space to git which commit the space now equals.
  // So does the change request: an updated one stays tracked with its new revision.
  const changeRequest = origin.changeRequest ?? source.changeRequest;
  await store.recordRevisionOrigin(space, to, {
    ...origin,
    sha: source.sha,
    ...(changeRequest === undefined ? {} : { changeRequest }),
  });
  return true;
}
