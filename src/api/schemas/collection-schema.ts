// A collection: a group of spaces and collections of an organization, with its default level.
import { z } from 'zod';
import { ROLES } from './service-enums.js';

/** A collection's or space's default level: a role, null (guests), or `inherit` from its parent. */
export const contentLevelSchema = z.union([z.enum(ROLES), z.literal('inherit')]).nullable();
export type ContentLevel = z.output<typeof contentLevelSchema>;

export const collectionSchema = z.looseObject({
  object: z.literal('collection'),
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  organization: z.string(),
  parent: z.string().optional(),
  defaultLevel: contentLevelSchema,
  urls: z.looseObject({ location: z.string(), app: z.string() }),
  permissions: z.looseObject({
    view: z.boolean(),
    admin: z.boolean(),
    viewInviteLinks: z.boolean(),
    create: z.boolean(),
  }),
});

export type Collection = z.output<typeof collectionSchema>;
