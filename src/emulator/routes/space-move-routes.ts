// Where a space sits: move (into a collection of its organization or to the top level, before or after
// a sibling) and transfer to another organization the caller administers too, with what it holds
// (content, change requests, reviews and comments follow it: they name the space, not the
// organization). A space published in a site of its organization cannot leave it: 412, as the
// public document answers when "the space cannot be moved".
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireNamedSpace, requireOrg } from '../access.js';
import { childrenOf, collectionOfOrg, keyForPosition } from '../collection-tree.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import { badRequest, EmulatorHttpError } from '../emulator-http-error.js';
import type { StoredSpace } from '../emulator-state.js';
import { parseInput } from '../parse-input.js';
import { renderSpace } from '../render/render-space.js';

const pointer = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('space'), space: z.string().min(1) }),
  z.strictObject({ type: z.literal('collection'), collection: z.string().min(1) }),
]);
const spaceMove = z.strictObject({
  parent: z.string().min(1).nullable().optional(),
  position: z.strictObject({ before: pointer.optional(), after: pointer.optional() }).optional(),
});
const spaceTransfer = z.strictObject({
  organization: z.string().min(1),
  collection: z.string().min(1).optional(),
});

type Params = { s: string };

export function registerSpaceMoveRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post<{ Params: Params }>('/v1/spaces/:s/move', async (request) => {
    const { caller, space } = requireNamedSpace(ctx, request, 'admin', 'moving the space');
    const body = parseInput(spaceMove, request.body, 'body');
    if (body.parent === undefined && body.position === undefined)
      throw badRequest('invalid body: give parent, position or both');
    const parent =
      body.parent === undefined
        ? space.parent
        : body.parent === null
          ? undefined
          : collectionOfOrg(ctx.state, space.orgId, body.parent, 'parent').id;
    placeSpace(ctx, space, space.orgId, parent, body.position);
    return savedSpace(ctx, caller, space);
  });

  app.post<{ Params: Params }>('/v1/spaces/:s/transfer', async (request) => {
    const { caller, space } = requireNamedSpace(ctx, request, 'admin', 'transferring the space');
    const body = parseInput(spaceTransfer, request.body, 'body');
    const target = requireOrg(
      caller,
      body.organization,
      'admin',
      'transferring a space into the organization',
    );
    const parent =
      body.collection === undefined
        ? undefined
        : collectionOfOrg(ctx.state, target.id, body.collection, 'collection').id;
    // Within its own organization a transfer is a move: into the collection, else to the top level.
    if (target.id !== space.orgId) {
      // A site publishes spaces of its own organization: one that publishes this space keeps it.
      const site = Object.values(ctx.state.sites).find(
        (each) => each.orgId === space.orgId && each.siteSpaces.some((entry) => entry.spaceId === space.id),
      );
      if (site !== undefined)
        throw new EmulatorHttpError(
          412,
          `space ${space.id} is published in site ${site.id}: remove it from the site before the transfer`,
        );
      // The values of the old organization's custom fields mean nothing in the new one.
      delete ctx.state.customFieldValues[space.id];
    }
    placeSpace(ctx, space, target.id, parent, undefined);
    space.orgId = target.id;
    return savedSpace(ctx, caller, space);
  });
}

/** Puts the space under `parent` of the organization, where the position says (last by default). */
function placeSpace(
  ctx: EmulatorContext,
  space: StoredSpace,
  orgId: string,
  parent: string | undefined,
  position: z.infer<typeof spaceMove>['position'],
): void {
  if (parent === space.parent && orgId === space.orgId && position === undefined) return;
  const others = childrenOf(ctx, orgId, parent).filter(
    (sibling) => !(sibling.kind === 'space' && sibling.id === space.id),
  );
  space.position = keyForPosition(ctx, orgId, others, position);
  if (parent === undefined) {
    delete space.parent;
    // Only a space in a collection can take its visibility from it.
    if (space.visibility === 'in-collection') space.visibility = 'private';
  } else {
    space.parent = parent;
  }
}

/** A change to the space stored, and the space as it now is. */
function savedSpace(ctx: EmulatorContext, caller: Caller, space: StoredSpace) {
  space.updatedAt = ctx.now().toISOString();
  ctx.changed();
  return renderSpace(ctx, caller, space);
}
