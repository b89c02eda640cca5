// A member of an organization: a user with a role (null for a guest).
import { z } from 'zod';
import { dateTime, nullableRole } from './shared-fields.js';
import { userSchema } from './user-schema.js';

// No field is marked required in the interface; `id` is, as the key of every member operation.
export const memberSchema = z.looseObject({
  object: z.literal('member').optional(),
  id: z.string(),
  role: nullableRole.optional(),
  user: userSchema.optional(),
  disabled: z.boolean().optional(),
  joinedAt: dateTime.optional(),
  lastSeenAt: dateTime.optional(),
  sso: z.boolean().optional(),
  spaces: z.number().optional(),
  teams: z.number().optional(),
});

export type Member = z.output<typeof memberSchema>;
