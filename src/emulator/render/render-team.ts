// Team records, the items of a team's member list and of a member's team list, as the interface
// shows them. A team's `spaces` is 0: the local service gives teams no access of their own to spaces.
import { roleIn } from '../access.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import type { StoredMember, StoredOrg } from '../emulator-state.js';
import { roleAtLeast } from '../roles.js';
import type { StoredTeam, StoredTeamMember } from '../stored-org-resources.js';
import { canManageTeam, teamMembersOf } from '../team-members.js';
import { renderMember } from './render-user.js';

export function renderTeam(caller: Caller, org: StoredOrg, team: StoredTeam) {
  return {
    object: 'team' as const,
    id: team.id,
    title: team.title,
    members: teamMembersOf(org, team).length,
    spaces: 0,
    createdAt: team.createdAt,
    permissions: {
      admin: canManageTeam(caller, team),
      view: roleAtLeast(roleIn(caller, team.orgId), 'read'),
    },
  };
}

/** An item of `GET /orgs/{o}/teams/{teamId}/members`. */
export function renderTeamMember(
  ctx: EmulatorContext,
  caller: Caller,
  org: StoredOrg,
  member: StoredMember,
  entry: StoredTeamMember,
) {
  return {
    organization: renderMember(ctx, org, member),
    team: { role: entry.role },
    permissions: { view: roleAtLeast(roleIn(caller, org.id), 'read') },
  };
}

/** An item of `GET /orgs/{o}/members/{userId}/teams`. */
export function renderMemberTeam(caller: Caller, org: StoredOrg, team: StoredTeam, entry: StoredTeamMember) {
  return { team: renderTeam(caller, org, team), member: { role: entry.role } };
}
