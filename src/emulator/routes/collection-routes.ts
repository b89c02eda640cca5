// Collections: create (at the top level or in a parent), list (all nested, or the top level), get,
// patch, delete (with what they hold), the spaces of one, move (parent and place among siblings)
// and transfer to another organization of the caller.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ROLES } from '../../api/schemas/service-enums.js';
import { callerOf, requireOrg } from '../access.js';
import {
  childrenOf,
  collectionOfOrg,
  collectionSubtree,
  collectionsInTreeOrder,
  keyForPosition,
  requireCollection,
} from '../collection-tree.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import { badRequest } from '../emulator-http-error.js';
import { nextSeq } from '../emulator-state.js';
import { newId } from '../ids.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { renderCollection } from '../render/render-collection.js';
import { renderSpace } from '../render/render-space.js';
import { requireNamedOrg } from '../require-named-org.js';
import type { Role } from '../roles.js';
import type { StoredCollection } from '../stored-org-resources.js';

const listQuery = z.looseObject({ page: z.string().optional(), limit: z.string().optional() });
const collectionsQuery = listQuery.extend({
  nested: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
});
const level = z.union([z.enum(ROLES), z.literal('inherit')]).nullable();
const collectionCreate = z.strictObject({
  title: z.string().max(50).optional(),
  parent: z.string().min(1).optional(),
});
const collectionPatch = z.strictObject({
  title: z.string().max(50).optional(),
  description: z.string().max(100).optional(),
  defaultLevel: level.optional(),
});
const pointer = z.union([
  z.looseObject({ type: z.literal('space'), space: z.string().min(1) }),
  z.looseObject({ type: z.literal('collection'), collection: z.string().min(1) }),
]);
const collectionMove = z.strictObject({
  parent: z.string().min(1).nullable().optional(),
  position: z.strictObject({ before: pointer.optional(), after: pointer.optional() }).optional(),
});
const collectionTransfer = z.strictObject({ organization: z.string().min(1) });

type Params = { o: string; c: string };

export function registerCollectionRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  registerCollectionRecordRoutes(app, ctx);
  registerCollectionPlacementRoutes(app, ctx);
}

/** Collections: list and create in an organization, get, patch and delete. */
function registerCollectionRecordRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: Params }>('/v1/orgs/:o/collections', async (request) => {
    const { caller, org } = requireNamedOrg(request, 'read', 'listing collections');
    const query = parseInput(collectionsQuery, request.query, 'query');
    const all = collectionsInTreeOrder(ctx.state, org.id);
    const listed = query.nested ? all : all.filter((collection) => collection.parent === undefined);
    // The cursor is a place in the tree's order.
    const ranked = listed.map((collection, index) => ({ collection, seq: index + 1 }));
    return pageOf(ranked, query, ({ collection }) => renderCollection(ctx, caller, collection));
  });

  app.post<{ Params: Params }>('/v1/orgs/:o/collections', async (request, reply) => {
    const { caller, org } = requireNamedOrg(request, 'create', 'creating a collection');
    const body = parseInput(collectionCreate, request.body, 'body');
    if (body.parent !== undefined) collectionOfOrg(ctx.state, org.id, body.parent, 'parent');
    const now = ctx.now().toISOString();
    const seq = nextSeq(ctx.state);
    const collection: StoredCollection = {
      id: newId('col_'),
      seq,
      orgId: org.id,
      title: body.title ?? 'Untitled',
      ...(body.parent === undefined ? {} : { parent: body.parent }),
      defaultLevel: null,
      position: seq,
      createdAt: now,
      updatedAt: now,
    };
    ctx.state.collections[collection.id] = collection;
    ctx.changed();
    return reply
      .code(201)
      .header('location', `/v1/collections/${collection.id}`)
      .send(renderCollection(ctx, caller, collection));
  });

  app.get<{ Params: Params }>('/v1/collections/:c', async (request) => {
    const { caller, collection } = requireNamedCollection(ctx, request, 'read', 'reading a collection');
    return renderCollection(ctx, caller, collection);
  });

  app.patch<{ Params: Params }>('/v1/collections/:c', async (request) => {
    const { caller, collection } = requireNamedCollection(ctx, request, 'admin', 'changing a collection');
    const patch = parseInput(collectionPatch, request.body, 'body');
    for (const [key, value] of Object.entries(patch)) {
      if (value !== undefined) Object.assign(collection, { [key]: value });
    }
    return saved(ctx, collection, () => renderCollection(ctx, caller, collection));
  });

  app.delete<{ Params: Params }>('/v1/collections/:c', async (request, reply) => {
    const { collection } = requireNamedCollection(ctx, request, 'admin', 'deleting a collection');
    deleteCollection(ctx, collection);
    ctx.changed();
    return reply.code(205).send();
  });
}

/** What a collection holds and where it sits: its spaces, its move and its transfer. */
function registerCollectionPlacementRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: Params }>('/v1/collections/:c/spaces', async (request) => {
    const { caller, collection } = requireNamedCollection(
      ctx,
      request,
      'read',
      'listing the spaces of a collection',
    );
    const query = parseInput(listQuery, request.query, 'query');
    // In their order among the collection's children; the cursor is a place in that order.
    const spaces = childrenOf(ctx, collection.orgId, collection.id).flatMap((child, index) => {
      const space = child.kind === 'space' ? ctx.state.spaces[child.id] : undefined;
      return space === undefined ? [] : [{ space, seq: index + 1 }];
    });
    return pageOf(spaces, query, ({ space }) => renderSpace(ctx, caller, space));
  });

  app.post<{ Params: Params }>('/v1/collections/:c/move', async (request) => {
    const { caller, collection } = requireNamedCollection(ctx, request, 'admin', 'moving a collection');
    const body = parseInput(collectionMove, request.body, 'body');
    if (body.parent === undefined && body.position === undefined)
      throw badRequest('invalid body: give `parent`, `position` or both');
    const parent = body.parent === undefined ? collection.parent : (body.parent ?? undefined);
    if (parent !== undefined) {
      const target = collectionOfOrg(ctx.state, collection.orgId, parent, 'parent');
      if (collectionSubtree(ctx.state, collection).includes(target))
        throw badRequest(`parent: collection ${parent} is the collection itself or nested in it`);
    }
    const siblings = childrenOf(ctx, collection.orgId, parent).filter(
      (sibling) => !(sibling.kind === 'collection' && sibling.id === collection.id),
    );
    collection.position = keyForPosition(ctx, collection.orgId, siblings, body.position);
    if (parent === undefined) delete collection.parent;
    else collection.parent = parent;
    return saved(ctx, collection, () => renderCollection(ctx, caller, collection));
  });

  app.post<{ Params: Params }>('/v1/collections/:c/transfer', async (request) => {
    const { caller, collection } = requireNamedCollection(ctx, request, 'admin', 'transferring a collection');
    const body = parseInput(collectionTransfer, request.body, 'body');
    const target = requireOrg(caller, body.organization, 'admin', 'transferring a collection into it');
    if (target.id === collection.orgId)
      throw badRequest(`organization: collection ${collection.id} is already in organization ${target.id}`);
    transferCollection(ctx, collection, target.id);
    delete collection.parent;
    collection.position = nextSeq(ctx.state);
    return saved(ctx, collection, () => renderCollection(ctx, caller, collection));
  });
}

/** The caller and the collection the path names (`:c`), once the caller holds `needed` in its organization. */
function requireNamedCollection(
  ctx: EmulatorContext,
  request: FastifyRequest<{ Params: Params }>,
  needed: Role,
  action: string,
): { caller: Caller; collection: StoredCollection } {
  const caller = callerOf(request);
  return { caller, collection: requireCollection(caller, ctx.state, request.params.c, needed, action) };
}

function saved<T>(ctx: EmulatorContext, collection: StoredCollection, render: () => T): T {
  collection.updatedAt = ctx.now().toISOString();
  ctx.changed();
  return render();
}

/**
 * Deleting a collection deletes what it holds, as the service's "delete a collection" does: the
 * collections nested in it go, and its spaces (at any depth) are deleted like a space is (restorable
 * for the restore window, at the organization's top level since their collection is gone).
 */
function deleteCollection(ctx: EmulatorContext, collection: StoredCollection): void {
  const subtree = new Set(collectionSubtree(ctx.state, collection).map((each) => each.id));
  const now = ctx.now().toISOString();
  for (const space of Object.values(ctx.state.spaces)) {
    if (space.parent === undefined || !subtree.has(space.parent)) continue;
    delete space.parent;
    if (space.visibility === 'in-collection') space.visibility = 'private';
    if (space.deletedAt === undefined) {
      space.deletedAt = now;
      space.updatedAt = now;
    }
  }
  for (const id of subtree) delete ctx.state.collections[id];
  for (const invite of Object.values(ctx.state.invites)) {
    if (invite.kind === 'collection' && subtree.has(invite.collectionId)) delete ctx.state.invites[invite.id];
  }
}

/**
 * The collection, the collections nested in it and every space they hold move to the organization
 * (a space's change requests and comments go with it). Invite links to them and the values of the
 * old organization's custom fields stay behind, since they belong to that organization.
 */
function transferCollection(ctx: EmulatorContext, collection: StoredCollection, orgId: string): void {
  const subtree = collectionSubtree(ctx.state, collection);
  const ids = new Set(subtree.map((each) => each.id));
  const now = ctx.now().toISOString();
  for (const each of subtree) {
    each.orgId = orgId;
    each.updatedAt = now;
  }
  const spaceIds = new Set<string>();
  for (const space of Object.values(ctx.state.spaces)) {
    if (space.parent === undefined || !ids.has(space.parent)) continue;
    space.orgId = orgId;
    space.updatedAt = now;
    spaceIds.add(space.id);
    delete ctx.state.customFieldValues[space.id];
  }
  for (const invite of Object.values(ctx.state.invites)) {
    const moved =
      (invite.kind === 'collection' && ids.has(invite.collectionId)) ||
      (invite.kind === 'space' && spaceIds.has(invite.spaceId));
    if (moved) delete ctx.state.invites[invite.id];
  }
}
