// A member of an organization: the user, their role (null for a guest) and counts.
import { z } from 'zod';
import { ROLES } from './service-enums.js';
import { dateTime } from './shared-fields.js';
import { userSchema } from './user-schema.js';

export const orgMemberSchema = z.looseObject({
  object: z.literal('member'),
  id: z.string(),
  role: z.enum(ROLES).nullable(),
  user: userSchema,
  disabled: z.boolean(),
  joinedAt: dateTime,
  lastSeenAt: dateTime.optional(),
  sso: z.boolean(),
  spaces: z.number(),
  teams: z.number(),
});

export type OrgMember = z.output<typeof orgMemberSchema>;
