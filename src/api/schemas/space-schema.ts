// A space: documentation content with its active revision and change request counts.
import { z } from 'zod';
import { EDIT_MODES, SPACE_VISIBILITIES } from './service-enums.js';
import { dateTime, defaultLevel, permissionMap, urlMap } from './shared-fields.js';

export const spaceSchema = z.looseObject({
  object: z.literal('space'),
  id: z.string(),
  title: z.string(),
  emoji: z.string(),
  visibility: z.enum(SPACE_VISIBILITIES),
  createdAt: dateTime,
  updatedAt: dateTime,
  deletedAt: dateTime.optional(),
  editMode: z.enum(EDIT_MODES).optional(),
  urls: urlMap.optional(),
  organization: z.string(),
  parent: z.string().optional(),
  gitSync: z.looseObject({}).optional(),
  revision: z.string(),
  defaultLevel,
  comments: z.number(),
  changeRequests: z.number(),
  changeRequestsOpen: z.number(),
  changeRequestsDraft: z.number(),
  permissions: permissionMap.optional(),
});

export type Space = z.output<typeof spaceSchema>;
