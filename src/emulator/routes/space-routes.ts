// Spaces: create (POST /orgs/{o}/spaces, as the public service does), get, patch, delete with a
// restore window, restore, duplicate. Move and transfer are in space-move-routes.ts.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { EDIT_MODES, ROLES, SPACE_VISIBILITIES } from '../../api/schemas/service-enums.js';
import { callerOf, requireNamedSpace, requireOrg } from '../access.js';
import { createEmptySpace } from '../create-empty-space.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import { badRequest } from '../emulator-http-error.js';
import { nextSeq, type StoredSpace } from '../emulator-state.js';
import { newId } from '../ids.js';
import { parseInput } from '../parse-input.js';
import { renderSpace } from '../render/render-space.js';

const spaceCreate = z.strictObject({
  title: z.string().max(50).optional(),
  emoji: z.string().max(50).optional(),
});
const spacePatch = z.strictObject({
  editMode: z.enum(EDIT_MODES).optional(),
  title: z.string().max(50).optional(),
  defaultLevel: z.enum(ROLES).nullable().optional(),
  emoji: z.string().max(50).optional(),
  visibility: z.enum(SPACE_VISIBILITIES).optional(),
});

type Params = { o: string; s: string };

export function registerSpaceRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post<{ Params: Params }>('/v1/orgs/:o/spaces', async (request, reply) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, 'create', 'creating a space');
    const body = parseInput(spaceCreate, request.body, 'body');
    const space = createEmptySpace(ctx, org.id, {
      title: body.title ?? 'Untitled',
      ...(body.emoji === undefined ? {} : { emoji: body.emoji }),
    });
    ctx.changed();
    return reply
      .code(201)
      .header('location', `/v1/spaces/${space.id}`)
      .send(renderSpace(ctx, caller, space));
  });

  app.get<{ Params: Params; Querystring: { shareKey?: string } }>('/v1/spaces/:s', async (request) => {
    // A deleted space still answers, with deletedAt, until its restore window ends.
    const { caller, space } = requireNamedSpace(ctx, request, 'read', 'reading the space', {
      allowDeleted: true,
    });
    return renderSpace(ctx, caller, space);
  });

  app.patch<{ Params: Params }>('/v1/spaces/:s', async (request) => {
    const { caller, space } = requireNamedSpace(ctx, request, 'admin', 'changing the space');
    const patch = parseInput(spacePatch, request.body, 'body');
    if (patch.visibility === 'in-collection' && space.parent === undefined) {
      throw badRequest('visibility: in-collection is only for spaces in a collection');
    }
    for (const [key, value] of Object.entries(patch)) {
      if (value !== undefined) Object.assign(space, { [key]: value });
    }
    return savedSpace(ctx, caller, space);
  });

  app.delete<{ Params: Params }>('/v1/spaces/:s', async (request, reply) => {
    const { space } = requireNamedSpace(ctx, request, 'admin', 'deleting the space');
    space.deletedAt = ctx.now().toISOString();
    ctx.changed();
    return reply.code(205).send();
  });

  app.post<{ Params: Params }>('/v1/spaces/:s/restore', async (request) => {
    const { caller, space } = requireNamedSpace(ctx, request, 'admin', 'restoring the space', {
      allowDeleted: true,
    });
    if (space.deletedAt === undefined) throw badRequest(`space ${space.id} is not deleted`);
    delete space.deletedAt;
    return savedSpace(ctx, caller, space);
  });

  app.post<{ Params: Params }>('/v1/spaces/:s/duplicate', async (request, reply) => {
    const { caller, space: source } = requireNamedSpace(ctx, request, 'create', 'duplicating the space');
    const now = ctx.now().toISOString();
    // Revisions never change, so the copy can start from the same one.
    const copy: StoredSpace = {
      ...source,
      id: newId('spc_'),
      seq: nextSeq(ctx.state),
      title: `${source.title} (copy)`.slice(0, 50),
      createdAt: now,
      updatedAt: now,
      changeRequestCount: 0,
    };
    ctx.state.spaces[copy.id] = copy;
    ctx.changed();
    return reply.code(201).send(renderSpace(ctx, caller, copy));
  });
}

/** A change to the space stored, and the space as it now is. */
function savedSpace(ctx: EmulatorContext, caller: Caller, space: StoredSpace) {
  space.updatedAt = ctx.now().toISOString();
  ctx.changed();
  return renderSpace(ctx, caller, space);
}
