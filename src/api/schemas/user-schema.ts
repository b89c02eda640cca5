// A user as embedded in members, change requests, reviews and comments.
import { z } from 'zod';
import { urlMap } from './shared-fields.js';

// The interface marks no field of User required; `id` is, because a user without one is useless.
export const userSchema = z.looseObject({
  object: z.literal('user').optional(),
  id: z.string(),
  displayName: z.string().optional(),
  email: z.string().optional(),
  photoURL: z.string().optional(),
  urls: urlMap.optional(),
});

export type User = z.output<typeof userSchema>;
