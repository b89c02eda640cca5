// Collections nest and hold spaces: the lookups, the order of a parent's children (collections and
// spaces together, by their sibling key) and where a move puts one.
import { isPurged, membershipIn, requireOrg } from './access.js';
import type { Caller, EmulatorContext } from './emulator-context.js';
import { badRequest, notFound } from './emulator-http-error.js';
import type { EmulatorState } from './emulator-state.js';
import type { Role } from './roles.js';
import type { StoredCollection } from './stored-org-resources.js';

/** A collection the caller can see (a member of its organization), once they hold `needed` there. */
export function requireCollection(
  caller: Caller,
  state: EmulatorState,
  collectionId: string,
  needed: Role,
  action: string,
): StoredCollection {
  const collection = state.collections[collectionId];
  if (collection === undefined || membershipIn(caller, collection.orgId) === undefined)
    throw notFound(`collection ${collectionId}`);
  requireOrg(caller, collection.orgId, needed, action);
  return collection;
}

/** A collection of the organization that a body names (`field`): 404 when there is none. */
export function collectionOfOrg(
  state: EmulatorState,
  orgId: string,
  collectionId: string,
  field: string,
): StoredCollection {
  const collection = state.collections[collectionId];
  if (collection === undefined || collection.orgId !== orgId)
    throw notFound(`collection ${collectionId} (${field})`);
  return collection;
}

/** The collection and every collection nested in it, at any depth. */
export function collectionSubtree(state: EmulatorState, root: StoredCollection): StoredCollection[] {
  const found = [root];
  for (let i = 0; i < found.length; i += 1) {
    const parentId = found[i]?.id;
    for (const collection of Object.values(state.collections)) {
      if (collection.parent === parentId) found.push(collection);
    }
  }
  return found;
}

export interface Sibling {
  kind: 'collection' | 'space';
  id: string;
  key: number;
}

/** The children of a parent (undefined: the organization's top level), in order. */
export function childrenOf(ctx: EmulatorContext, orgId: string, parent: string | undefined): Sibling[] {
  const collections = Object.values(ctx.state.collections)
    .filter((collection) => collection.orgId === orgId && collection.parent === parent)
    .map((collection): Sibling => ({ kind: 'collection', id: collection.id, key: collection.position }));
  const spaces = Object.values(ctx.state.spaces)
    .filter(
      (space) =>
        space.orgId === orgId &&
        space.parent === parent &&
        space.deletedAt === undefined &&
        !isPurged(ctx, space),
    )
    .map((space): Sibling => ({ kind: 'space', id: space.id, key: space.position ?? space.seq }));
  return [...collections, ...spaces].sort((a, b) => a.key - b.key);
}

/** Every collection of the organization, parents before their children, siblings in order. */
export function collectionsInTreeOrder(state: EmulatorState, orgId: string): StoredCollection[] {
  const all = Object.values(state.collections).filter((collection) => collection.orgId === orgId);
  const ordered: StoredCollection[] = [];
  const visit = (parent: string | undefined) => {
    const children = all
      .filter((collection) => collection.parent === parent)
      .sort((a, b) => a.position - b.position);
    for (const child of children) {
      ordered.push(child);
      visit(child.id);
    }
  };
  visit(undefined);
  return ordered;
}

export type ContentPointer = { type: 'space'; space: string } | { type: 'collection'; collection: string };

export interface ContentPosition {
  before?: ContentPointer | undefined;
  after?: ContentPointer | undefined;
}

/**
 * The sibling key that puts an item among `siblings` (the other children of its new parent, the
 * item left out) before or after the one a position names, or last when none is named.
 */
export function keyForPosition(
  ctx: EmulatorContext,
  orgId: string,
  others: Sibling[],
  position: ContentPosition | undefined,
): number {
  const indexOf = (pointer: ContentPointer, field: string): number => {
    const id = pointer.type === 'space' ? pointer.space : pointer.collection;
    const index = others.findIndex((sibling) => sibling.kind === pointer.type && sibling.id === id);
    if (index >= 0) return index;
    const record = pointer.type === 'space' ? ctx.state.spaces[id] : ctx.state.collections[id];
    if (record === undefined || record.orgId !== orgId) throw notFound(`${pointer.type} ${id} (${field})`);
    throw badRequest(`${field}: ${pointer.type} ${id} is not a child of the parent the item moves to`);
  };
  const before = position?.before === undefined ? undefined : indexOf(position.before, 'position.before');
  const after = position?.after === undefined ? undefined : indexOf(position.after, 'position.after');
  if (before !== undefined && after !== undefined && after !== before - 1)
    throw badRequest('position: `after` must be the sibling right before `before`');
  if (before !== undefined) {
    const next = others[before]?.key ?? 0;
    const previous = others[before - 1]?.key ?? next - 2;
    return (previous + next) / 2;
  }
  if (after !== undefined) {
    const previous = others[after]?.key ?? 0;
    const next = others[after + 1]?.key ?? previous + 2;
    return (previous + next) / 2;
  }
  return (others.at(-1)?.key ?? 0) + 1;
}
