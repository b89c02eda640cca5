// A new space of an organization: empty content (a revision with no pages), private, live.
import type { EmulatorContext } from './emulator-context.js';
import { nextSeq, type StoredSpace } from './emulator-state.js';
import { newId } from './ids.js';
import { createRevision } from './revisions.js';

export function createEmptySpace(
  ctx: EmulatorContext,
  orgId: string,
  fields: { title: string; emoji?: string },
): StoredSpace {
  const now = ctx.now().toISOString();
  const revision = createRevision(ctx, { parents: [], pages: [], files: [] });
  const space: StoredSpace = {
    id: newId('spc_'),
    seq: nextSeq(ctx.state),
    orgId,
    title: fields.title,
    emoji: fields.emoji ?? '',
    visibility: 'private',
    editMode: 'live',
    defaultLevel: null,
    createdAt: now,
    updatedAt: now,
    revision: revision.id,
    changeRequestCount: 0,
  };
  ctx.state.spaces[space.id] = space;
  return space;
}
