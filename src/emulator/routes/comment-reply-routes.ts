// Replies to a comment, under `{thread prefix}/{commentId}/replies` of both kinds of thread: list
// (oldest first, the reading order of a conversation), post, get, update (body by the author,
// reactions by anyone with the comment role).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { callerOf } from '../access.js';
import { applyReactions } from '../apply-reactions.js';
import {
  commentBodySchema,
  formatQuerySchema,
  listQuerySchema,
  markdownOf,
  reactionChangeShape,
} from '../comment-input-schemas.js';
import {
  repliesOf,
  requireComment,
  requireReply,
  requireThread,
  type ThreadParams,
} from '../comment-threads.js';
import type { EmulatorContext } from '../emulator-context.js';
import { forbidden } from '../emulator-http-error.js';
import { nextSeq, type StoredReply } from '../emulator-state.js';
import { newId } from '../ids.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { renderCommentReply } from '../render/render-comment.js';

const replyCreate = z.strictObject({ body: commentBodySchema });
const replyUpdate = z.strictObject({ body: commentBodySchema.optional(), ...reactionChangeShape });

type Params = ThreadParams & { commentId: string; replyId: string };

export function registerCommentReplyRoutes(app: FastifyInstance, ctx: EmulatorContext, prefix: string): void {
  const replies = `${prefix}/:commentId/replies`;

  app.get<{ Params: Params }>(replies, async (request) => {
    const caller = callerOf(request);
    const thread = requireThread(ctx, caller, request.params, 'read', 'listing comment replies');
    const comment = requireComment(ctx, thread, request.params.commentId);
    const query = parseInput(listQuerySchema, request.query, 'query');
    return pageOf(repliesOf(ctx, comment), query, (reply) => renderCommentReply(ctx, caller, thread, reply));
  });

  app.post<{ Params: Params }>(replies, async (request) => {
    const caller = callerOf(request);
    const thread = requireThread(ctx, caller, request.params, 'comment', 'replying to a comment');
    const comment = requireComment(ctx, thread, request.params.commentId);
    parseInput(formatQuerySchema, request.query, 'query');
    const body = parseInput(replyCreate, request.body, 'body');
    const reply: StoredReply = {
      id: newId('rpl_'),
      seq: nextSeq(ctx.state),
      commentId: comment.id,
      postedBy: caller.user.id,
      postedAt: ctx.now().toISOString(),
      markdown: markdownOf(body.body),
      reactions: [],
    };
    ctx.state.replies[reply.id] = reply;
    ctx.changed();
    return renderCommentReply(ctx, caller, thread, reply);
  });

  app.get<{ Params: Params }>(`${replies}/:replyId`, async (request) => {
    const caller = callerOf(request);
    const thread = requireThread(ctx, caller, request.params, 'read', 'reading a comment reply');
    const comment = requireComment(ctx, thread, request.params.commentId);
    parseInput(formatQuerySchema, request.query, 'query');
    return renderCommentReply(ctx, caller, thread, requireReply(ctx, comment, request.params.replyId));
  });

  app.put<{ Params: Params }>(`${replies}/:replyId`, async (request) => {
    const caller = callerOf(request);
    const thread = requireThread(ctx, caller, request.params, 'comment', 'updating a comment reply');
    const comment = requireComment(ctx, thread, request.params.commentId);
    const reply = requireReply(ctx, comment, request.params.replyId);
    const update = parseInput(replyUpdate, request.body, 'body');
    if (update.body !== undefined && reply.postedBy !== caller.user.id)
      throw forbidden('only the author of a reply can edit its body');
    const now = ctx.now().toISOString();
    if (update.body !== undefined) {
      reply.markdown = markdownOf(update.body);
      reply.editedAt = now;
    }
    reply.reactions = applyReactions(reply.reactions, caller.user.id, update, now);
    ctx.changed();
    return renderCommentReply(ctx, caller, thread, reply);
  });
}
