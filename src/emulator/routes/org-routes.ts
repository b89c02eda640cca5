// Organizations and their members: list, get, patch, ping; members list (filters, order, sort),
// get, patch role, delete, sso, and the spaces a member can reach.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { LIST_ORDERS, ROLES } from '../../api/schemas/service-enums.js';
import { callerOf, requireOrg, requireRole } from '../access.js';
import type { EmulatorContext } from '../emulator-context.js';
import { badRequest, notFound } from '../emulator-http-error.js';
import type { StoredMember } from '../emulator-state.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { renderSpace } from '../render/render-space.js';
import { renderMember, renderOrg } from '../render/render-user.js';

const roleOrNull = z.enum(ROLES).nullable();
const listQuery = z.looseObject({ page: z.string().optional(), limit: z.string().optional() });
const orderSchema = z.enum(LIST_ORDERS).default('desc');

const orgPatch = z.strictObject({
  title: z.string().min(2).max(255).optional(),
  emailDomains: z.array(z.string().min(1)).optional(),
  hostname: z.string().min(3).max(32).optional(),
  defaultRole: roleOrNull.optional(),
  defaultContent: z.object({ type: z.string(), site: z.string() }).nullable().optional(),
  logo: z.url().max(2048).nullable().optional(),
  sso: z.boolean().optional(),
  ai: z.boolean().optional(),
  inviteLinks: z.boolean().optional(),
});

const memberQuery = listQuery.extend({
  order: orderSchema,
  role: z.enum(ROLES).optional(),
  search: z.string().optional(),
  sort: z.enum(['joinedAt', 'lastSeenAt']).default('joinedAt'),
});

type Params = { o: string; userId: string };

export function registerOrgRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  registerOrgRecordRoutes(app, ctx);
  registerOrgMemberRoutes(app, ctx);
}

/** Organizations: list, get, patch, and the ping. */
function registerOrgRecordRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get('/v1/orgs', async (request) => {
    const caller = callerOf(request);
    const orgs = caller.memberships.map((membership) => membership.org);
    return pageOf(orgs, parseInput(listQuery, request.query, 'query'), (org) => renderOrg(ctx, caller, org));
  });

  app.get<{ Params: Params }>('/v1/orgs/:o', async (request) => {
    const caller = callerOf(request);
    return renderOrg(ctx, caller, requireOrg(caller, request.params.o, 'read', 'reading the organization'));
  });

  app.patch<{ Params: Params }>('/v1/orgs/:o', async (request) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, 'admin', 'changing the organization');
    const patch = parseInput(orgPatch, request.body, 'body');
    for (const [key, value] of Object.entries(patch)) {
      if (value !== undefined) Object.assign(org, { [key]: value });
    }
    ctx.changed();
    return renderOrg(ctx, caller, org);
  });

  app.post<{ Params: Params }>('/v1/orgs/:o/ping', async (request) => {
    const caller = callerOf(request);
    const { member } = requireRole(caller, request.params.o, 'read', 'pinging the organization');
    member.lastSeenAt = ctx.now().toISOString();
    ctx.changed();
    return {};
  });
}

/** An organization's members: list, get, patch, remove, their sign-in and their spaces. */
function registerOrgMemberRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: Params }>('/v1/orgs/:o/members', async (request) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, 'read', 'listing members');
    const query = parseInput(memberQuery, request.query, 'query');
    const search = query.search?.toLowerCase();
    const members = Object.values(org.members).filter((member) => {
      if (query.role !== undefined && member.role !== query.role) return false;
      if (search === undefined) return true;
      const user = ctx.state.users[member.userId];
      return (
        user !== undefined &&
        (user.displayName.toLowerCase().includes(search) || user.email.toLowerCase().includes(search))
      );
    });
    if (query.sort === 'lastSeenAt') {
      // Only members seen at least once, ordered by when (joining order breaks ties). The cursor is a
      // place in that order: a member seen again while the list is walked moves, as on the service.
      const ranked = members
        .filter((member) => member.lastSeenAt !== undefined)
        .sort((a, b) => compareText(a.lastSeenAt ?? '', b.lastSeenAt ?? '') || a.seq - b.seq)
        .map((member, index) => ({ member, seq: index + 1 }));
      return pageOf(ranked, query, ({ member }) => renderMember(ctx, org, member), query.order);
    }
    return pageOf(members, query, (member) => renderMember(ctx, org, member), query.order);
  });

  app.get<{ Params: Params }>('/v1/orgs/:o/members/:userId', async (request) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, 'read', 'reading a member');
    return renderMember(ctx, org, requireMember(org.members, request.params.userId));
  });

  app.patch<{ Params: Params }>('/v1/orgs/:o/members/:userId', async (request) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, 'admin', 'changing a member');
    const member = requireMember(org.members, request.params.userId);
    const { role } = parseInput(z.strictObject({ role: roleOrNull }), request.body, 'body');
    if (member.userId === caller.user.id && role !== 'admin')
      throw badRequest('role: an admin cannot lower their own role');
    member.role = role;
    ctx.changed();
    return renderMember(ctx, org, member);
  });

  app.delete<{ Params: Params }>('/v1/orgs/:o/members/:userId', async (request, reply) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, 'admin', 'removing a member');
    const member = requireMember(org.members, request.params.userId);
    if (member.userId === caller.user.id) throw badRequest('an admin cannot remove themselves');
    delete org.members[member.userId];
    ctx.changed();
    return reply.code(204).send();
  });

  app.post<{ Params: Params }>('/v1/orgs/:o/members/:userId/sso', async (request) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, 'admin', 'making a member an SSO member');
    const member = requireMember(org.members, request.params.userId);
    member.sso = true;
    ctx.changed();
    return renderMember(ctx, org, member);
  });

  app.get<{ Params: Params }>('/v1/orgs/:o/members/:userId/spaces', async (request) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, 'read', 'listing the spaces of a member');
    const member = requireMember(org.members, request.params.userId);
    const query = parseInput(listQuery.extend({ order: orderSchema }), request.query, 'query');
    const spaces =
      member.role === null
        ? []
        : Object.values(ctx.state.spaces).filter(
            (space) => space.orgId === org.id && space.deletedAt === undefined,
          );
    return pageOf(
      spaces,
      query,
      (space) => ({ permission: member.role, space: renderSpace(ctx, caller, space) }),
      query.order,
    );
  });
}

/** ISO timestamps of the same format order as text. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function requireMember(members: Record<string, StoredMember>, userId: string): StoredMember {
  const member = members[userId];
  if (member === undefined) throw notFound(`member ${userId}`);
  return member;
}
