// A reply to a comment.
import { z } from 'zod';
import { commentReactionsSchema } from './comment-reactions-schema.js';
import { dateTime, permissionMap, urlMap } from './shared-fields.js';
import { userSchema } from './user-schema.js';

export const commentReplySchema = z.looseObject({
  object: z.literal('comment-reply').optional(),
  id: z.string(),
  postedBy: userSchema.optional(),
  postedAt: dateTime.optional(),
  editedAt: dateTime.optional(),
  reactions: commentReactionsSchema.optional(),
  body: z.looseObject({ markdown: z.string().optional() }).optional(),
  urls: urlMap.optional(),
  permissions: permissionMap.optional(),
});

export type CommentReply = z.output<typeof commentReplySchema>;
