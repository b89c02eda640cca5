// Reactions on a comment or a reply: each emoji with who reacted and when.
import { z } from 'zod';
import { dateTime } from './shared-fields.js';
import { userSchema } from './user-schema.js';

export const commentReactionsSchema = z.array(
  z.looseObject({
    emoji: z.string(),
    count: z.number().optional(),
    users: z.array(z.looseObject({ user: userSchema.optional(), reactedAt: dateTime.optional() })).optional(),
  }),
);
