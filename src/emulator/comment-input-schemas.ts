// Request shapes shared by comment and reply routes of both kinds of thread.
import { z } from 'zod';
import { CONTENT_FORMATS } from '../api/schemas/service-enums.js';

/** A comment body on write: `{markdown}`, or `{}` for an empty comment. */
export const commentBodySchema = z.union([z.strictObject({ markdown: z.string() }), z.strictObject({})]);

export type CommentBodyInput = z.infer<typeof commentBodySchema>;

export function markdownOf(body: CommentBodyInput): string {
  return 'markdown' in body ? body.markdown : '';
}

// Bodies are kept as markdown, so both formats answer `body: {markdown}`; the value is still checked.
export const formatSchema = z.enum(CONTENT_FORMATS).optional();

const emojiList = z.array(z.string().min(1).max(50)).max(100).optional();

export const reactionChangeShape = { addedReactions: emojiList, removedReactions: emojiList };

export const listQuerySchema = z.looseObject({
  page: z.string().optional(),
  limit: z.string().optional(),
  format: formatSchema,
});

export const formatQuerySchema = z.looseObject({ format: formatSchema });
