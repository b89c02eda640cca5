// Replies to a comment, under `{thread prefix}/{commentId}/replies` of both kinds of thread: list
// (oldest first, the reading order of a conversation), post, get, update (body by the author,
// reactions by anyone with the comment role).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  commentBodySchema,
  formatQuerySchema,
  listQuerySchema,
  reactionChangeShape,
} from '../comment-input-schemas.js';
import { type CommentParams, repliesOf, requireReply, requireThreadComment } from '../comment-threads.js';
import type { EmulatorContext } from '../emulator-context.js';
import type { StoredReply } from '../emulator-state.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { editPost, newPost } from '../posts.js';
import { renderCommentReply } from '../render/render-comment.js';

const replyCreate = z.strictObject({ body: commentBodySchema });
const replyUpdate = z.strictObject({ body: commentBodySchema.optional(), ...reactionChangeShape });

type Params = CommentParams & { replyId: string };

export function registerCommentReplyRoutes(app: FastifyInstance, ctx: EmulatorContext, prefix: string): void {
  const replies = `${prefix}/:commentId/replies`;

  app.get<{ Params: Params }>(replies, async (request) => {
    const { caller, thread, comment } = requireThreadComment(ctx, request, 'read', 'listing comment replies');
    const query = parseInput(listQuerySchema, request.query, 'query');
    return pageOf(repliesOf(ctx, comment), query, (reply) => renderCommentReply(ctx, caller, thread, reply));
  });

  app.post<{ Params: Params }>(replies, async (request) => {
    const { caller, thread, comment } = requireThreadComment(
      ctx,
      request,
      'comment',
      'replying to a comment',
    );
    parseInput(formatQuerySchema, request.query, 'query');
    const body = parseInput(replyCreate, request.body, 'body');
    const reply: StoredReply = {
      ...newPost(ctx, 'rpl_', caller.user.id, body.body),
      commentId: comment.id,
    };
    ctx.state.replies[reply.id] = reply;
    ctx.changed();
    return renderCommentReply(ctx, caller, thread, reply);
  });

  app.get<{ Params: Params }>(`${replies}/:replyId`, async (request) => {
    const { caller, thread, comment } = requireThreadComment(ctx, request, 'read', 'reading a comment reply');
    parseInput(formatQuerySchema, request.query, 'query');
    return renderCommentReply(ctx, caller, thread, requireReply(ctx, comment, request.params.replyId));
  });

  app.put<{ Params: Params }>(`${replies}/:replyId`, async (request) => {
    const { caller, thread, comment } = requireThreadComment(
      ctx,
      request,
      'comment',
      'updating a comment reply',
    );
    const reply = requireReply(ctx, comment, request.params.replyId);
    const update = parseInput(replyUpdate, request.body, 'body');
    editPost(reply, caller.user.id, update, ctx.now().toISOString(), 'reply');
    ctx.changed();
    return renderCommentReply(ctx, caller, thread, reply);
  });
}
