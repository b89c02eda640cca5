// Revisions are immutable content states; a change of content is always a new revision.
import type { EmulatorContext } from './emulator-context.js';
import { nextSeq, type StoredFile, type StoredPage, type StoredRevision } from './emulator-state.js';
import { newId } from './ids.js';

export function createRevision(
  ctx: EmulatorContext,
  content: { parents: string[]; pages: StoredPage[]; files: StoredFile[] },
): StoredRevision {
  const revision: StoredRevision = {
    id: newId('rev_'),
    seq: nextSeq(ctx.state),
    parents: content.parents,
    createdAt: ctx.now().toISOString(),
    pages: content.pages,
    files: content.files,
  };
  ctx.state.revisions[revision.id] = revision;
  return revision;
}

export function requireRevision(ctx: EmulatorContext, id: string): StoredRevision {
  const revision = ctx.state.revisions[id];
  // Every revision a space or change request points at exists: a missing one is a bug, not a 404.
  if (revision === undefined) throw new Error(`revision ${id} is missing from the state`);
  return revision;
}
