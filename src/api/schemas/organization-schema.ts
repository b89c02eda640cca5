// An organization: owner of spaces, members and OpenAPI specifications.
import { z } from 'zod';
import { dateTime, nullableRole, permissionMap, urlMap } from './shared-fields.js';

export const organizationSchema = z.looseObject({
  object: z.literal('organization'),
  id: z.string(),
  title: z.string(),
  createdAt: dateTime,
  emailDomains: z.array(z.string()),
  hostname: z.string().optional(),
  type: z.string(),
  useCase: z.string().optional(),
  communityType: z.string().optional(),
  defaultRole: nullableRole.optional(),
  defaultContent: z.looseObject({ type: z.string(), site: z.string().optional() }).optional(),
  sso: z.boolean().optional(),
  ai: z.boolean().optional(),
  inviteLinks: z.boolean(),
  plan: z.string(),
  customHostname: z.string().optional(),
  urls: urlMap.optional(),
  permissions: permissionMap.optional(),
});

export type Organization = z.output<typeof organizationSchema>;
