// Teams of an organization: listing (by title, or those a member can manage), creating, renaming
// and deleting them; their members, added, removed and given a team role; and a member's teams.
import { type ApiPath, apiPath } from './api-path.js';
import type { CallOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { PagedList } from './paged-list.js';
import { noContentSchema } from './schemas/no-content-schema.js';
import { type Page, pageOf } from './schemas/page-of.js';
import type { TeamMemberRole } from './schemas/service-enums.js';
import {
  type MemberTeam,
  memberTeamSchema,
  type Team,
  type TeamMember,
  teamMemberSchema,
  teamSchema,
} from './schemas/team-schema.js';

export interface TeamListOptions extends ListOptions {
  /** A member's id: only the teams they can manage. */
  owner?: string | undefined;
  /** Only teams whose title contains this, whatever the case. */
  title?: string | undefined;
}

export interface MemberTeamListOptions extends ListOptions {
  title?: string | undefined;
}

export interface TeamMembersUpdate {
  /** User ids or e-mail addresses. */
  add?: string[];
  /** User ids or e-mail addresses; a user in both lists is removed. */
  remove?: string[];
  /** Team roles by user id. */
  memberships?: Record<string, { role: TeamMemberRole }>;
}

function teamPath(orgId: string, teamId?: string): ApiPath {
  return teamId === undefined ? apiPath`/orgs/${orgId}/teams` : apiPath`/orgs/${orgId}/teams/${teamId}`;
}

export class TeamsApi {
  private readonly teams: PagedList<Page<Team>, TeamListOptions>;
  private readonly members: PagedList<Page<TeamMember>>;
  private readonly memberTeams: PagedList<Page<MemberTeam>, MemberTeamListOptions>;

  constructor(private readonly transport: HttpTransport) {
    this.teams = new PagedList(transport, pageOf(teamSchema), (options) => ({
      owner: options.owner,
      title: options.title,
    }));
    this.members = new PagedList(transport, pageOf(teamMemberSchema));
    this.memberTeams = new PagedList(transport, pageOf(memberTeamSchema), (options) => ({
      title: options.title,
    }));
  }

  /** `GET /orgs/{o}/teams`. */
  list(orgId: string, options: TeamListOptions = {}): Promise<Page<Team>> {
    return this.teams.page(teamPath(orgId), options);
  }

  listAll(
    orgId: string,
    options: ListAllOptions<TeamListOptions> = {},
  ): AsyncGenerator<Team, void, undefined> {
    return this.teams.all(teamPath(orgId), options);
  }

  /** `PUT /orgs/{o}/teams`: 201. `members` are member ids of the organization. */
  create(
    orgId: string,
    team: { title: string; members?: string[] },
    options: CallOptions = {},
  ): Promise<Team> {
    return this.transport.request('PUT', teamPath(orgId), {
      body: team,
      signal: options.signal,
      schema: teamSchema,
      expect: [201],
    });
  }

  /** `GET /orgs/{o}/teams/{teamId}`. */
  get(orgId: string, teamId: string, options: CallOptions = {}): Promise<Team> {
    return this.transport.request('GET', teamPath(orgId, teamId), {
      signal: options.signal,
      schema: teamSchema,
    });
  }

  /** `PATCH /orgs/{o}/teams/{teamId}`: a new title, 1 to 64 characters. */
  rename(orgId: string, teamId: string, title: string, options: CallOptions = {}): Promise<Team> {
    return this.transport.request('PATCH', teamPath(orgId, teamId), {
      body: { title },
      signal: options.signal,
      schema: teamSchema,
    });
  }

  /** `DELETE /orgs/{o}/teams/{teamId}`: 204 (205 from services that tell a deletion apart). */
  delete(orgId: string, teamId: string, options: CallOptions = {}): Promise<void> {
    return this.transport.request('DELETE', teamPath(orgId, teamId), {
      signal: options.signal,
      schema: noContentSchema,
      expect: [204, 205],
    });
  }

  /** `GET /orgs/{o}/teams/{teamId}/members`. */
  listMembers(orgId: string, teamId: string, options: ListOptions = {}): Promise<Page<TeamMember>> {
    return this.members.page(apiPath`${teamPath(orgId, teamId)}/members`, options);
  }

  listMembersAll(
    orgId: string,
    teamId: string,
    options: ListAllOptions<ListOptions> = {},
  ): AsyncGenerator<TeamMember, void, undefined> {
    return this.members.all(apiPath`${teamPath(orgId, teamId)}/members`, options);
  }

  /** `PUT /orgs/{o}/teams/{teamId}/members`: adds, removes and sets roles in one call; 204. */
  updateMembers(
    orgId: string,
    teamId: string,
    update: TeamMembersUpdate,
    options: CallOptions = {},
  ): Promise<void> {
    return this.transport.request('PUT', apiPath`${teamPath(orgId, teamId)}/members`, {
      body: update,
      signal: options.signal,
      schema: noContentSchema,
      expect: [204],
    });
  }

  /** `PUT /orgs/{o}/teams/{teamId}/members/{userId}`: adds the member or changes their role; 204. */
  setMember(
    orgId: string,
    teamId: string,
    userId: string,
    member: { role?: TeamMemberRole } = {},
    options: CallOptions = {},
  ): Promise<void> {
    return this.transport.request('PUT', apiPath`${teamPath(orgId, teamId)}/members/${userId}`, {
      body: member,
      signal: options.signal,
      schema: noContentSchema,
      expect: [204],
    });
  }

  /** `DELETE /orgs/{o}/teams/{teamId}/members/{userId}`: 204 (or 205). */
  removeMember(orgId: string, teamId: string, userId: string, options: CallOptions = {}): Promise<void> {
    return this.transport.request('DELETE', apiPath`${teamPath(orgId, teamId)}/members/${userId}`, {
      signal: options.signal,
      schema: noContentSchema,
      expect: [204, 205],
    });
  }

  /** `GET /orgs/{o}/members/{userId}/teams`: the teams a member is in, with their role in each. */
  listOfMember(
    orgId: string,
    userId: string,
    options: MemberTeamListOptions = {},
  ): Promise<Page<MemberTeam>> {
    return this.memberTeams.page(apiPath`/orgs/${orgId}/members/${userId}/teams`, options);
  }

  listOfMemberAll(
    orgId: string,
    userId: string,
    options: ListAllOptions<MemberTeamListOptions> = {},
  ): AsyncGenerator<MemberTeam, void, undefined> {
    return this.memberTeams.all(apiPath`/orgs/${orgId}/members/${userId}/teams`, options);
  }
}
