// Teams of an organization and their members: list (owner and title filters), create, get, rename,
// delete; the member list, members added, removed and given a role in bulk or one at a time; and the
// teams of one member. Organization admins manage every team, a team's owners manage theirs.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { TEAM_MEMBER_ROLES, type TeamMemberRole } from '../../api/schemas/service-enums.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import { conflict, forbidden, notFound } from '../emulator-http-error.js';
import { nextSeq, type StoredMember, type StoredOrg } from '../emulator-state.js';
import { newId } from '../ids.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { renderMemberTeam, renderTeam, renderTeamMember } from '../render/render-team.js';
import { requireNamedOrg } from '../require-named-org.js';
import type { StoredTeam } from '../stored-org-resources.js';
import { canManageTeam, memberCanManageTeam, teamMembersOf, teamsOfUser } from '../team-members.js';

const listQuery = z.looseObject({ page: z.string().optional(), limit: z.string().optional() });
const teamsQuery = listQuery.extend({ owner: z.string().min(1).optional(), title: z.string().optional() });
const memberTeamsQuery = listQuery.extend({ title: z.string().optional() });
const title = z.string().min(1).max(64);
const teamCreate = z.strictObject({ title, members: z.array(z.string().min(1)).optional() });
const teamPatch = z.strictObject({ title });
const teamRole = z.enum(TEAM_MEMBER_ROLES);
const membersUpdate = z.strictObject({
  add: z.array(z.string().min(1)).optional(),
  remove: z.array(z.string().min(1)).optional(),
  memberships: z.record(z.string().min(1), z.looseObject({ role: teamRole })).optional(),
});
const memberPut = z.strictObject({ role: teamRole.optional() });

type Params = { o: string; teamId: string; userId: string };

export function registerTeamRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  registerTeamListRoutes(app, ctx);
  registerOneTeamRoutes(app, ctx);
  registerTeamMemberRoutes(app, ctx);
}

/** The teams of an organization: list, and create or find by title. */
function registerTeamListRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: Params }>('/v1/orgs/:o/teams', async (request) => {
    const { caller, org } = requireNamedOrg(request, 'read', 'listing teams');
    const query = parseInput(teamsQuery, request.query, 'query');
    const owner = query.owner === undefined ? undefined : memberOf(ctx, org, query.owner, 'owner');
    const titled = query.title?.toLowerCase();
    const teams = teamsOfOrg(ctx, org).filter(
      (team) =>
        (owner === undefined || memberCanManageTeam(owner, team)) &&
        (titled === undefined || team.title.toLowerCase().includes(titled)),
    );
    return pageOf(teams, query, (team) => renderTeam(caller, org, team));
  });

  app.put<{ Params: Params }>('/v1/orgs/:o/teams', async (request, reply) => {
    const { caller, org } = requireNamedOrg(request, 'admin', 'creating a team');
    const body = parseInput(teamCreate, request.body, 'body');
    requireFreeTitle(ctx, org, body.title);
    const members = (body.members ?? []).map((id, index) => memberOf(ctx, org, id, `members.${index}`));
    const team: StoredTeam = {
      id: newId('team_'),
      seq: nextSeq(ctx.state),
      orgId: org.id,
      title: body.title,
      createdAt: ctx.now().toISOString(),
      members: {},
    };
    for (const member of members) team.members[member.userId] = { role: 'member', seq: nextSeq(ctx.state) };
    ctx.state.teams[team.id] = team;
    ctx.changed();
    return reply.code(201).send(renderTeam(caller, org, team));
  });
}

/** One team: get, patch and delete. */
function registerOneTeamRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: Params }>('/v1/orgs/:o/teams/:teamId', async (request) => {
    const { caller, org } = requireNamedOrg(request, 'read', 'reading a team');
    return renderTeam(caller, org, requireTeam(ctx, org, request.params.teamId));
  });

  app.patch<{ Params: Params }>('/v1/orgs/:o/teams/:teamId', async (request) => {
    const { caller, org } = requireNamedOrg(request, 'read', 'renaming a team');
    const team = requireManagedTeam(ctx, caller, org, request.params.teamId, 'renaming a team');
    const body = parseInput(teamPatch, request.body, 'body');
    if (body.title !== team.title) requireFreeTitle(ctx, org, body.title);
    team.title = body.title;
    ctx.changed();
    return renderTeam(caller, org, team);
  });

  app.delete<{ Params: Params }>('/v1/orgs/:o/teams/:teamId', async (request, reply) => {
    const { org } = requireNamedOrg(request, 'admin', 'deleting a team');
    const team = requireTeam(ctx, org, request.params.teamId);
    delete ctx.state.teams[team.id];
    ctx.changed();
    return reply.code(204).send();
  });
}

/** A team's members (list, replace, add, remove), and the teams of an organization member. */
function registerTeamMemberRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: Params }>('/v1/orgs/:o/teams/:teamId/members', async (request) => {
    const { caller, org } = requireNamedOrg(request, 'read', 'listing the members of a team');
    const team = requireTeam(ctx, org, request.params.teamId);
    const query = parseInput(listQuery, request.query, 'query');
    const members = teamMembersOf(org, team).map((entry) => ({ ...entry, seq: entry.team.seq }));
    return pageOf(members, query, (entry) => renderTeamMember(ctx, caller, org, entry.member, entry.team));
  });

  app.put<{ Params: Params }>('/v1/orgs/:o/teams/:teamId/members', async (request, reply) => {
    const { caller, org } = requireNamedOrg(request, 'read', 'changing the members of a team');
    const team = requireManagedTeam(
      ctx,
      caller,
      org,
      request.params.teamId,
      'changing the members of a team',
    );
    const body = parseInput(membersUpdate, request.body, 'body');
    // Every name is checked before anything changes: a bad one leaves the team as it was.
    const added = (body.add ?? []).map((who, index) => memberOf(ctx, org, who, `add.${index}`));
    const removed = new Set(
      (body.remove ?? []).map((who, index) => memberOf(ctx, org, who, `remove.${index}`).userId),
    );
    const roles = Object.entries(body.memberships ?? {}).map(
      ([who, { role }]) => [memberOf(ctx, org, who, `memberships.${who}`), role] as const,
    );
    for (const member of added) addToTeam(ctx, team, member.userId, undefined);
    for (const [member, role] of roles) addToTeam(ctx, team, member.userId, role);
    for (const userId of removed) delete team.members[userId];
    ctx.changed();
    return reply.code(204).send();
  });

  app.put<{ Params: Params }>('/v1/orgs/:o/teams/:teamId/members/:userId', async (request, reply) => {
    const { caller, org } = requireNamedOrg(request, 'read', 'adding a member to a team');
    const team = requireManagedTeam(ctx, caller, org, request.params.teamId, 'adding a member to a team');
    const body = parseInput(memberPut, request.body, 'body');
    const member = memberOf(ctx, org, request.params.userId, 'userId');
    addToTeam(ctx, team, member.userId, body.role);
    ctx.changed();
    return reply.code(204).send();
  });

  app.delete<{ Params: Params }>('/v1/orgs/:o/teams/:teamId/members/:userId', async (request, reply) => {
    const { caller, org } = requireNamedOrg(request, 'read', 'removing a member from a team');
    const team = requireManagedTeam(ctx, caller, org, request.params.teamId, 'removing a member from a team');
    const { userId } = request.params;
    if (team.members[userId] === undefined || org.members[userId] === undefined)
      throw notFound(`member ${userId} of team ${team.id}`);
    delete team.members[userId];
    ctx.changed();
    return reply.code(204).send();
  });

  app.get<{ Params: Params }>('/v1/orgs/:o/members/:userId/teams', async (request) => {
    const { caller, org } = requireNamedOrg(request, 'read', 'listing the teams of a member');
    const member = memberOf(ctx, org, request.params.userId, 'userId');
    const query = parseInput(memberTeamsQuery, request.query, 'query');
    const titled = query.title?.toLowerCase();
    const teams = teamsOfUser(ctx.state, org.id, member.userId).filter(
      ({ team }) => titled === undefined || team.title.toLowerCase().includes(titled),
    );
    return pageOf(
      teams.map((each) => ({ ...each, seq: each.team.seq })),
      query,
      ({ team, entry }) => renderMemberTeam(caller, org, team, entry),
    );
  });
}

function teamsOfOrg(ctx: EmulatorContext, org: StoredOrg): StoredTeam[] {
  return Object.values(ctx.state.teams).filter((team) => team.orgId === org.id);
}

function requireTeam(ctx: EmulatorContext, org: StoredOrg, teamId: string): StoredTeam {
  const team = ctx.state.teams[teamId];
  if (team === undefined || team.orgId !== org.id) throw notFound(`team ${teamId}`);
  return team;
}

/** A team the caller may manage: 404 when there is none, 403 when they are neither admin nor owner. */
function requireManagedTeam(
  ctx: EmulatorContext,
  caller: Caller,
  org: StoredOrg,
  teamId: string,
  action: string,
): StoredTeam {
  const team = requireTeam(ctx, org, teamId);
  if (!canManageTeam(caller, team))
    throw forbidden(`${action} needs the admin role or to be an owner of team ${team.id}`);
  return team;
}

/** Titles are unique in an organization, whatever their case. */
function requireFreeTitle(ctx: EmulatorContext, org: StoredOrg, wanted: string): void {
  const taken = teamsOfOrg(ctx, org).find((team) => team.title.toLowerCase() === wanted.toLowerCase());
  if (taken !== undefined)
    throw conflict(`title: team ${taken.id} of the organization is already named "${taken.title}"`);
}

/** A member of the organization by user id or e-mail address (`field` is where the request named them). */
function memberOf(ctx: EmulatorContext, org: StoredOrg, who: string, field: string): StoredMember {
  const byId = org.members[who];
  if (byId !== undefined) return byId;
  if (who.includes('@')) {
    const email = who.toLowerCase();
    const byEmail = Object.values(org.members).find(
      (member) => ctx.state.users[member.userId]?.email.toLowerCase() === email,
    );
    if (byEmail !== undefined) return byEmail;
  }
  throw notFound(`member ${who} of the organization (${field})`);
}

/** Adds the user to the team (as a member unless a role is given) or changes their role. */
function addToTeam(
  ctx: EmulatorContext,
  team: StoredTeam,
  userId: string,
  role: TeamMemberRole | undefined,
): void {
  const existing = team.members[userId];
  if (existing !== undefined) {
    if (role !== undefined) existing.role = role;
    return;
  }
  team.members[userId] = { role: role ?? 'member', seq: nextSeq(ctx.state) };
}
