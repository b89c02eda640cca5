// Who is in a team, and what a caller may do with it. A team keeps its members by user id; one
// removed from the organization since is not a member of its teams any more (and comes back with
// their role in the team if they rejoin).
import { roleIn } from './access.js';
import type { Caller } from './emulator-context.js';
import type { EmulatorState, StoredMember, StoredOrg } from './emulator-state.js';
import { roleAtLeast } from './roles.js';
import type { StoredTeam, StoredTeamMember } from './stored-org-resources.js';

export interface TeamMembership {
  member: StoredMember;
  team: StoredTeamMember;
}

/** The team's members who are still members of its organization, in the order they were added. */
export function teamMembersOf(org: StoredOrg, team: StoredTeam): TeamMembership[] {
  return Object.entries(team.members)
    .flatMap(([userId, entry]) => {
      const member = org.members[userId];
      return member === undefined ? [] : [{ member, team: entry }];
    })
    .sort((a, b) => a.team.seq - b.team.seq);
}

/** The teams of the organization a user is in, with their role in each. */
export function teamsOfUser(
  state: EmulatorState,
  orgId: string,
  userId: string,
): Array<{ team: StoredTeam; entry: StoredTeamMember }> {
  return Object.values(state.teams).flatMap((team) => {
    const entry = team.orgId === orgId ? team.members[userId] : undefined;
    return entry === undefined ? [] : [{ team, entry }];
  });
}

/** Organization admins manage every team; a team's owners manage theirs. */
export function canManageTeam(caller: Caller, team: StoredTeam): boolean {
  return roleAtLeast(roleIn(caller, team.orgId), 'admin') || team.members[caller.user.id]?.role === 'owner';
}

/** The same for any member of the organization, by their membership. */
export function memberCanManageTeam(member: StoredMember, team: StoredTeam): boolean {
  return roleAtLeast(member.role, 'admin') || team.members[member.userId]?.role === 'owner';
}
