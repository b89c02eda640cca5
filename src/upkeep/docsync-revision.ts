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
  if ((await store.revisionOrigin(space, from)) === undefined) return false;
  await store.recordRevisionOrigin(space, to, origin);
  return true;
}
