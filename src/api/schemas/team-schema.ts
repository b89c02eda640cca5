// A team of an organization, the items of its member list and of a member's team list.
import { z } from 'zod';
import { orgMemberSchema } from './org-member-schema.js';
import { TEAM_MEMBER_ROLES } from './service-enums.js';
import { dateTime } from './shared-fields.js';

export const teamSchema = z.looseObject({
  object: z.literal('team'),
  id: z.string(),
  title: z.string(),
  members: z.number(),
  spaces: z.number(),
  createdAt: dateTime,
  permissions: z.looseObject({ admin: z.boolean(), view: z.boolean() }),
});

export type Team = z.output<typeof teamSchema>;

const teamRoleSchema = z.looseObject({ role: z.enum(TEAM_MEMBER_ROLES) });

/** An item of a team's member list: the organization member and their role in the team. */
export const teamMemberSchema = z.looseObject({
  organization: orgMemberSchema,
  team: teamRoleSchema,
  permissions: z.looseObject({ view: z.boolean() }),
});

export type TeamMember = z.output<typeof teamMemberSchema>;

/** An item of a member's team list: the team and the member's role in it. */
export const memberTeamSchema = z.looseObject({ team: teamSchema, member: teamRoleSchema });

export type MemberTeam = z.output<typeof memberTeamSchema>;
