// A comment thread is a space's main discussion or a change request's. Routes of both kinds share
// this: which thread a path names, which revision its page targets live in, where its records are.
import type { FastifyRequest } from 'fastify';
import { requireChangeRequest, requireNamedSpace } from './access.js';
import type { Caller, EmulatorContext } from './emulator-context.js';
import { notFound } from './emulator-http-error.js';
import type { StoredChangeRequest, StoredComment, StoredReply, StoredSpace } from './emulator-state.js';
import type { Role } from './roles.js';

export interface CommentThread {
  space: StoredSpace;
  /** Set for a change request's thread. */
  changeRequest?: StoredChangeRequest;
}

export interface ThreadParams {
  s: string;
  /** A change request id or number; absent on space threads. */
  cr?: string;
}

export interface CommentParams extends ThreadParams {
  commentId: string;
}

/** What every comment and reply route starts from: who calls, in which thread. */
export interface ThreadRequest {
  caller: Caller;
  thread: CommentThread;
}

/** The caller and the thread a request names, once the caller is known to hold `needed` there. */
export function requireThread(
  ctx: EmulatorContext,
  request: FastifyRequest<{ Params: ThreadParams }>,
  needed: Role,
  action: string,
): ThreadRequest {
  const { caller, space } = requireNamedSpace(ctx, request, needed, action);
  const { cr } = request.params;
  return {
    caller,
    thread: cr === undefined ? { space } : { space, changeRequest: requireChangeRequest(ctx, space, cr) },
  };
}

/** The same, and the comment the request names (`:commentId`) in that thread. */
export function requireThreadComment(
  ctx: EmulatorContext,
  request: FastifyRequest<{ Params: CommentParams }>,
  needed: Role,
  action: string,
): ThreadRequest & { comment: StoredComment } {
  const found = requireThread(ctx, request, needed, action);
  return { ...found, comment: requireComment(ctx, found.thread, request.params.commentId) };
}

/** The revision whose pages a new comment may target: the change request's or the space's. */
export function threadRevisionId(thread: CommentThread): string {
  return thread.changeRequest?.revision ?? thread.space.revision;
}

/** Path of the thread's comment list, such as `/v1/spaces/spc_1/comments`. */
export function threadPath(thread: CommentThread): string {
  const space = `/v1/spaces/${thread.space.id}`;
  return thread.changeRequest === undefined
    ? `${space}/comments`
    : `${space}/change-requests/${thread.changeRequest.id}/comments`;
}

export function isInThread(thread: CommentThread, comment: StoredComment): boolean {
  return (
    comment.spaceId === thread.space.id &&
    comment.changeRequestId === thread.changeRequest?.id &&
    comment.deletedAt === undefined
  );
}

export function requireComment(
  ctx: EmulatorContext,
  thread: CommentThread,
  commentId: string,
): StoredComment {
  const comment = ctx.state.comments[commentId];
  if (comment === undefined || !isInThread(thread, comment)) throw notFound(`comment ${commentId}`);
  return comment;
}

export function requireReply(ctx: EmulatorContext, comment: StoredComment, replyId: string): StoredReply {
  const reply = ctx.state.replies[replyId];
  if (reply === undefined || reply.commentId !== comment.id) throw notFound(`comment reply ${replyId}`);
  return reply;
}

export function repliesOf(ctx: EmulatorContext, comment: StoredComment): StoredReply[] {
  return Object.values(ctx.state.replies).filter((reply) => reply.commentId === comment.id);
}
