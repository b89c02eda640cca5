// A comment in a space or change request thread, and its resolution.
import { z } from 'zod';
import { commentReactionsSchema } from './comment-reactions-schema.js';
import { COMMENT_STATUSES } from './service-enums.js';
import { dateTime, permissionMap, urlMap } from './shared-fields.js';
import { userSchema } from './user-schema.js';

const commentTarget = z.looseObject({
  node: z.looseObject({ id: z.string().optional(), preview: z.unknown().optional() }).optional(),
  changeRequest: z.string().optional(),
  review: z.string().optional(),
  page: z
    .looseObject({
      id: z.string(),
      title: z.string().optional(),
      path: z.string().optional(),
      outdated: z.boolean().optional(),
    })
    .optional(),
  space: z.string().optional(),
  revision: z.string().optional(),
});

// A body as the document gives it: markdown, a structured document (`{document}`), or nothing. A
// thread read with `format: 'markdown'` has markdown bodies; docsync finds its comments by them.
const commentBody = z.looseObject({ markdown: z.string().optional(), document: z.unknown().optional() });

// The interface marks no field of Comment required; `id` is, as the key of every comment operation.
export const commentSchema = z.looseObject({
  object: z.literal('comment').optional(),
  id: z.string(),
  postedBy: userSchema.optional(),
  postedAt: dateTime.optional(),
  editedAt: dateTime.optional(),
  reactions: commentReactionsSchema.optional(),
  replies: z.number().optional(),
  body: commentBody.optional(),
  target: commentTarget.optional(),
  urls: urlMap.optional(),
  permissions: permissionMap.optional(),
  status: z.enum(COMMENT_STATUSES).optional(),
  resolvedAt: dateTime.optional(),
  resolvedBy: userSchema.optional(),
});

export type Comment = z.output<typeof commentSchema>;
