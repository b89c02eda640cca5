// Comments and replies are both posts: made the same way, and edited by the same rules (the body
// by its author only, reactions by anyone the route lets through).
import { applyReactions, type ReactionChange } from './apply-reactions.js';
import { type CommentBodyInput, markdownOf } from './comment-input-schemas.js';
import type { EmulatorContext } from './emulator-context.js';
import { forbidden } from './emulator-http-error.js';
import { nextSeq, type StoredPost } from './emulator-state.js';
import { newId } from './ids.js';

export interface PostUpdate extends ReactionChange {
  body?: CommentBodyInput | undefined;
}

/** A new post of `postedBy`, with no reactions yet; `idPrefix` says its kind (`cmt_`, `rpl_`). */
export function newPost(
  ctx: EmulatorContext,
  idPrefix: string,
  postedBy: string,
  body: CommentBodyInput,
  postedAt: string = ctx.now().toISOString(),
): StoredPost {
  return {
    id: newId(idPrefix),
    seq: nextSeq(ctx.state),
    postedBy,
    postedAt,
    markdown: markdownOf(body),
    reactions: [],
  };
}

/**
 * Applies the body and the reactions of `update` by `userId` at `now`. A body edit by anyone but the
 * author is refused before anything changes; `noun` names the post in that refusal.
 */
export function editPost(
  post: StoredPost,
  userId: string,
  update: PostUpdate,
  now: string,
  noun: string,
): void {
  if (update.body !== undefined && post.postedBy !== userId)
    throw forbidden(`only the author of a ${noun} can edit its body`);
  if (update.body !== undefined) {
    post.markdown = markdownOf(update.body);
    post.editedAt = now;
  }
  post.reactions = applyReactions(post.reactions, userId, update, now);
}
