// Invite links of an organization: to the organization with a role, or to one of its spaces or
// collections with a level. Created only while the organization has invite links on (`inviteLinks`),
// listed (organization invites), read, given another role or level, and deleted, by admins.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ROLES } from '../../api/schemas/service-enums.js';
import { callerOf, isPurged, requireOrg } from '../access.js';
import { collectionOfOrg } from '../collection-tree.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import { badRequest, notFound } from '../emulator-http-error.js';
import { nextSeq, type StoredOrg } from '../emulator-state.js';
import { newId } from '../ids.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { type InviteTarget, renderInvite } from '../render/render-invite.js';
import type { StoredInvite } from '../stored-org-resources.js';

const listQuery = z.looseObject({ page: z.string().optional(), limit: z.string().optional() });
const roleOrGuest = z.enum(ROLES).nullable();
const organizationInvite = z.strictObject({ role: roleOrGuest });
const spaceInvite = z.strictObject({ level: roleOrGuest, space: z.string().min(1) });
const collectionInvite = z.strictObject({ level: roleOrGuest, collection: z.string().min(1) });
const levelPatch = z.strictObject({ level: roleOrGuest });

/** The variant a body means, told by its members, so that a bad one is refused naming its field. */
function readInviteCreate(body: unknown) {
  const keys = typeof body === 'object' && body !== null ? Object.keys(body) : [];
  if (keys.includes('space')) return parseInput(spaceInvite, body, 'body');
  if (keys.includes('collection')) return parseInput(collectionInvite, body, 'body');
  return parseInput(organizationInvite, body, 'body');
}

function readInvitePatch(body: unknown) {
  const keys = typeof body === 'object' && body !== null ? Object.keys(body) : [];
  return keys.includes('level')
    ? parseInput(levelPatch, body, 'body')
    : parseInput(organizationInvite, body, 'body');
}

type Params = { o: string; inviteId: string };

export function registerLinkInviteRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: Params }>('/v1/orgs/:o/link-invites', async (request) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, 'admin', 'listing invite links');
    const query = parseInput(listQuery, request.query, 'query');
    const invites = Object.values(ctx.state.invites).filter(
      (invite) => invite.orgId === org.id && invite.kind === 'organization',
    );
    return pageOf(invites, query, (invite) => renderInvite(ctx, caller, invite, { kind: 'organization' }));
  });

  app.post<{ Params: Params }>('/v1/orgs/:o/link-invites', async (request, reply) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, 'admin', 'creating an invite link');
    const body = readInviteCreate(request.body);
    if (!org.inviteLinks)
      throw badRequest(`invite links are off in organization ${org.id}: turn \`inviteLinks\` on first`);
    const base = {
      id: newId('inv_'),
      seq: nextSeq(ctx.state),
      orgId: org.id,
      createdAt: ctx.now().toISOString(),
    };
    let invite: StoredInvite;
    if ('role' in body) invite = { ...base, kind: 'organization', role: body.role };
    else if ('space' in body) {
      spaceOfOrg(ctx, org, body.space);
      invite = { ...base, kind: 'space', level: body.level, spaceId: body.space };
    } else {
      collectionOfOrg(ctx.state, org.id, body.collection, 'collection');
      invite = { ...base, kind: 'collection', level: body.level, collectionId: body.collection };
    }
    ctx.state.invites[invite.id] = invite;
    ctx.changed();
    return reply.code(201).send(renderInvite(ctx, caller, invite, targetOf(ctx, org, invite)));
  });

  app.get<{ Params: Params }>('/v1/orgs/:o/link-invites/:inviteId', async (request) => {
    const caller = callerOf(request);
    const { org, invite } = requireInvite(ctx, caller, request.params, 'reading an invite link');
    return renderInvite(ctx, caller, invite, targetOf(ctx, org, invite));
  });

  app.patch<{ Params: Params }>('/v1/orgs/:o/link-invites/:inviteId', async (request) => {
    const caller = callerOf(request);
    const { org, invite } = requireInvite(ctx, caller, request.params, 'changing an invite link');
    const body = readInvitePatch(request.body);
    const target = targetOf(ctx, org, invite);
    if ('role' in body) {
      if (invite.kind !== 'organization')
        throw badRequest(`invalid body: role: invite ${invite.id} is to a ${invite.kind}: give \`level\``);
      invite.role = body.role;
    } else {
      if (invite.kind === 'organization')
        throw badRequest(`invalid body: level: invite ${invite.id} is to the organization: give \`role\``);
      invite.level = body.level;
    }
    ctx.changed();
    return renderInvite(ctx, caller, invite, target);
  });

  app.delete<{ Params: Params }>('/v1/orgs/:o/link-invites/:inviteId', async (request, reply) => {
    const caller = callerOf(request);
    const { invite } = requireInvite(ctx, caller, request.params, 'deleting an invite link');
    delete ctx.state.invites[invite.id];
    ctx.changed();
    return reply.code(205).send();
  });
}

function requireInvite(
  ctx: EmulatorContext,
  caller: Caller,
  params: Params,
  action: string,
): { org: StoredOrg; invite: StoredInvite } {
  const org = requireOrg(caller, params.o, 'admin', action);
  const invite = ctx.state.invites[params.inviteId];
  if (invite === undefined || invite.orgId !== org.id) throw notFound(`invite ${params.inviteId}`);
  return { org, invite };
}

function spaceOfOrg(ctx: EmulatorContext, org: StoredOrg, spaceId: string) {
  const space = ctx.state.spaces[spaceId];
  if (space === undefined || space.orgId !== org.id || space.deletedAt !== undefined || isPurged(ctx, space))
    throw notFound(`space ${spaceId} (space)`);
  return space;
}

/** What the invite gives access to; an invite to a space deleted since is gone with it. */
function targetOf(ctx: EmulatorContext, org: StoredOrg, invite: StoredInvite): InviteTarget {
  if (invite.kind === 'organization') return { kind: 'organization' };
  if (invite.kind === 'space') {
    const space = ctx.state.spaces[invite.spaceId];
    if (space === undefined || space.orgId !== org.id || isPurged(ctx, space))
      throw notFound(`invite ${invite.id}`);
    return { kind: 'space', space };
  }
  return {
    kind: 'collection',
    collection: collectionOfOrg(ctx.state, org.id, invite.collectionId, 'collection'),
  };
}
