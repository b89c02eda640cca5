// Comments of space threads (`/v1/spaces/{s}/comments`) and change request threads
// (`/v1/spaces/{s}/change-requests/{cr}/comments`): list with filters, post, get, update (resolve,
// edit, react), delete. Replies are in comment-reply-routes.ts.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { COMMENT_STATUS_FILTERS, LIST_ORDERS } from '../../api/schemas/service-enums.js';
import { roleIn } from '../access.js';
import {
  commentBodySchema,
  formatQuerySchema,
  listQuerySchema,
  reactionChangeShape,
} from '../comment-input-schemas.js';
import {
  type CommentParams,
  type CommentThread,
  isInThread,
  requireComment,
  requireThread,
  requireThreadComment,
  threadRevisionId,
} from '../comment-threads.js';
import type { EmulatorContext } from '../emulator-context.js';
import { badRequest, forbidden } from '../emulator-http-error.js';
import type { StoredComment } from '../emulator-state.js';
import { findRevisionPage } from '../find-revision-page.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { editPost, newPost } from '../posts.js';
import { renderComment } from '../render/render-comment.js';
import { requireRevision } from '../revisions.js';
import { roleAtLeast } from '../roles.js';
import { registerCommentReplyRoutes } from './comment-reply-routes.js';

/** Both kinds of thread serve the same operations under these prefixes. */
export const COMMENT_THREAD_PREFIXES = [
  '/v1/spaces/:s/comments',
  '/v1/spaces/:s/change-requests/:cr/comments',
] as const;

/** `authors=a&authors=b` and `authors=a,b` both name users a and b. */
const authorsSchema = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value) => {
    const ids = [value ?? []]
      .flat()
      .flatMap((item) => item.split(','))
      .map((item) => item.trim())
      .filter((item) => item !== '');
    return ids.length === 0 ? undefined : new Set(ids);
  });

const commentListQuery = listQuerySchema.extend({
  order: z.enum(LIST_ORDERS).default('desc'),
  status: z.enum(COMMENT_STATUS_FILTERS).default('all'),
  targetPage: z.string().min(1).optional(),
  authors: authorsSchema,
});

const commentCreate = z.strictObject({
  body: commentBodySchema,
  page: z.string().min(1).optional(),
  node: z.string().min(1).optional(),
});

const commentUpdate = z.strictObject({
  resolved: z.boolean().optional(),
  body: commentBodySchema.optional(),
  ...reactionChangeShape,
});

type Params = CommentParams;

export function registerCommentRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  for (const prefix of COMMENT_THREAD_PREFIXES) {
    app.get<{ Params: Params }>(prefix, async (request) => {
      const { caller, thread } = requireThread(ctx, request, 'read', 'listing comments');
      const query = parseInput(commentListQuery, request.query, 'query');
      const comments = Object.values(ctx.state.comments).filter(
        (comment) =>
          isInThread(thread, comment) &&
          (query.status === 'all' || comment.status === query.status) &&
          (query.targetPage === undefined || comment.target.pageId === query.targetPage) &&
          (query.authors === undefined || query.authors.has(comment.postedBy)),
      );
      return pageOf(comments, query, (comment) => renderComment(ctx, caller, thread, comment), query.order);
    });

    app.post<{ Params: Params }>(prefix, async (request) => {
      const { caller, thread } = requireThread(ctx, request, 'comment', 'posting a comment');
      parseInput(formatQuerySchema, request.query, 'query');
      const body = parseInput(commentCreate, request.body, 'body');
      if (body.page !== undefined) requireTargetPage(ctx, thread, body.page);
      const comment: StoredComment = {
        ...newPost(ctx, 'cmt_', caller.user.id, body.body),
        spaceId: thread.space.id,
        ...(thread.changeRequest === undefined ? {} : { changeRequestId: thread.changeRequest.id }),
        status: 'open',
        target: {
          ...(body.page === undefined ? {} : { pageId: body.page }),
          ...(body.node === undefined ? {} : { nodeId: body.node }),
        },
      };
      ctx.state.comments[comment.id] = comment;
      ctx.changed();
      return renderComment(ctx, caller, thread, comment);
    });

    app.get<{ Params: Params }>(`${prefix}/:commentId`, async (request) => {
      const { caller, thread } = requireThread(ctx, request, 'read', 'reading a comment');
      parseInput(formatQuerySchema, request.query, 'query');
      return renderComment(ctx, caller, thread, requireComment(ctx, thread, request.params.commentId));
    });

    app.put<{ Params: Params }>(`${prefix}/:commentId`, async (request) => {
      const { caller, thread, comment } = requireThreadComment(ctx, request, 'comment', 'updating a comment');
      const update = parseInput(commentUpdate, request.body, 'body');
      const now = ctx.now().toISOString();
      // editPost refuses before it changes anything; what follows cannot fail half-way.
      editPost(comment, caller.user.id, update, now, 'comment');
      if (update.resolved === true && comment.status !== 'resolved') {
        comment.status = 'resolved';
        comment.resolvedAt = now;
        comment.resolvedBy = caller.user.id;
      } else if (update.resolved === false && comment.status !== 'open') {
        comment.status = 'open';
        delete comment.resolvedAt;
        delete comment.resolvedBy;
      }
      ctx.changed();
      return renderComment(ctx, caller, thread, comment);
    });

    app.delete<{ Params: Params }>(`${prefix}/:commentId`, async (request, reply) => {
      const { caller, thread, comment } = requireThreadComment(ctx, request, 'comment', 'deleting a comment');
      if (comment.postedBy !== caller.user.id && !roleAtLeast(roleIn(caller, thread.space.orgId), 'admin'))
        throw forbidden('only the author of a comment or an admin can delete it');
      // Kept with deletedAt, like spaces: every count and list leaves deleted comments out.
      comment.deletedAt = ctx.now().toISOString();
      ctx.changed();
      return reply.code(205).send();
    });

    registerCommentReplyRoutes(app, ctx, prefix);
  }
}

/** A comment may only target a page of the thread's current revision. */
function requireTargetPage(ctx: EmulatorContext, thread: CommentThread, pageId: string): void {
  if (findRevisionPage(requireRevision(ctx, threadRevisionId(thread)), pageId) === undefined) {
    const where =
      thread.changeRequest === undefined ? 'the space' : `change request ${thread.changeRequest.number}`;
    throw badRequest(`page: page ${pageId} is not in the current revision of ${where}`);
  }
}
