// A comment thread is a space's main discussion or a change request's. Routes of both kinds share
// this: which thread a path names, which revision its page targets live in, where its records are.
import { requireChangeRequest, requireSpace } from './access.js';
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

export function requireThread(
  ctx: EmulatorContext,
  caller: Caller,
  params: ThreadParams,
  needed: Role,
  action: string,
): CommentThread {
  const space = requireSpace(ctx, caller, params.s, needed, action);
  if (params.cr === undefined) return { space };
  return { space, changeRequest: requireChangeRequest(ctx, space, params.cr) };
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
