// Comments and comment replies as the interface shows them, with the caller's permissions: anyone
// with the comment role may reply and react; only the author edits the body; the author or an admin
// deletes.
import { roleIn } from '../access.js';
import { type CommentThread, repliesOf, threadPath, threadRevisionId } from '../comment-threads.js';
import type { Caller, EmulatorContext } from '../emulator-context.js';
import type { StoredComment, StoredPost, StoredReaction, StoredReply } from '../emulator-state.js';
import { findRevisionPage } from '../find-revision-page.js';
import { requireRevision } from '../revisions.js';
import { roleAtLeast } from '../roles.js';
import { renderUserById } from './render-user.js';

export function renderReactions(ctx: EmulatorContext, reactions: readonly StoredReaction[]) {
  return reactions.map((reaction) => ({
    emoji: reaction.emoji,
    count: reaction.users.length,
    users: reaction.users.map((user) => ({
      user: renderUserById(ctx, user.userId),
      reactedAt: user.reactedAt,
    })),
  }));
}

export function commentPermissions(caller: Caller, orgId: string, postedBy: string) {
  const role = roleIn(caller, orgId);
  const canComment = roleAtLeast(role, 'comment');
  const isAuthor = postedBy === caller.user.id;
  return {
    view: roleAtLeast(role, 'read'),
    edit: canComment && isAuthor,
    reply: canComment,
    delete: canComment && (isAuthor || roleAtLeast(role, 'admin')),
  };
}

export function renderComment(
  ctx: EmulatorContext,
  caller: Caller,
  thread: CommentThread,
  comment: StoredComment,
) {
  return {
    object: 'comment' as const,
    ...renderPost(ctx, caller, thread.space.orgId, comment),
    replies: repliesOf(ctx, comment).length,
    target: renderTarget(ctx, thread, comment),
    urls: { location: `${ctx.origin()}${threadPath(thread)}/${comment.id}` },
    status: comment.status,
    ...(comment.resolvedAt === undefined ? {} : { resolvedAt: comment.resolvedAt }),
    ...(comment.resolvedBy === undefined ? {} : { resolvedBy: renderUserById(ctx, comment.resolvedBy) }),
  };
}

export function renderCommentReply(
  ctx: EmulatorContext,
  caller: Caller,
  thread: CommentThread,
  reply: StoredReply,
) {
  return {
    object: 'comment-reply' as const,
    ...renderPost(ctx, caller, thread.space.orgId, reply),
    urls: { location: `${ctx.origin()}${threadPath(thread)}/${reply.commentId}/replies/${reply.id}` },
  };
}

/** What comments and replies show alike: author, times, reactions, body and what the caller may do. */
function renderPost(ctx: EmulatorContext, caller: Caller, orgId: string, post: StoredPost) {
  return {
    id: post.id,
    postedBy: renderUserById(ctx, post.postedBy),
    postedAt: post.postedAt,
    ...(post.editedAt === undefined ? {} : { editedAt: post.editedAt }),
    reactions: renderReactions(ctx, post.reactions),
    body: { markdown: post.markdown },
    permissions: commentPermissions(caller, orgId, post.postedBy),
  };
}

function renderTarget(ctx: EmulatorContext, thread: CommentThread, comment: StoredComment) {
  const { pageId, nodeId } = comment.target;
  return {
    ...(thread.changeRequest === undefined ? {} : { changeRequest: thread.changeRequest.id }),
    space: thread.space.id,
    // Where the target is looked up: the thread's current revision, as `page.outdated` is.
    revision: threadRevisionId(thread),
    ...(pageId === undefined ? {} : { page: renderTargetPage(ctx, thread, pageId) }),
    ...(nodeId === undefined ? {} : { node: { id: nodeId } }),
  };
}

/** The page as the thread's current revision has it; a page removed since is `outdated`. */
function renderTargetPage(ctx: EmulatorContext, thread: CommentThread, pageId: string) {
  const found = findRevisionPage(requireRevision(ctx, threadRevisionId(thread)), pageId);
  if (found === undefined) return { id: pageId, outdated: true };
  return {
    id: found.page.id,
    title: found.page.title,
    createdAt: found.page.createdAt,
    updatedAt: found.page.updatedAt,
    path: found.path,
    outdated: false,
  };
}
