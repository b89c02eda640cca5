// Reactions of comments and replies: each user reacts at most once with an emoji. A request naming
// the same emoji in both lists ends without that reaction, as team membership add/remove does.
import type { StoredReaction } from './emulator-state.js';

export interface ReactionChange {
  addedReactions?: readonly string[] | undefined;
  removedReactions?: readonly string[] | undefined;
}

/** The reactions after `userId` adds and removes theirs; a new array, the input is left as is. */
export function applyReactions(
  reactions: readonly StoredReaction[],
  userId: string,
  change: ReactionChange,
  reactedAt: string,
): StoredReaction[] {
  const removed = new Set(change.removedReactions ?? []);
  const next = reactions.map((reaction) => ({ emoji: reaction.emoji, users: [...reaction.users] }));
  for (const emoji of new Set(change.addedReactions ?? [])) {
    if (removed.has(emoji)) continue;
    let reaction = next.find((item) => item.emoji === emoji);
    if (reaction === undefined) {
      reaction = { emoji, users: [] };
      next.push(reaction);
    }
    if (!reaction.users.some((user) => user.userId === userId)) reaction.users.push({ userId, reactedAt });
  }
  return next
    .map((reaction) =>
      removed.has(reaction.emoji)
        ? { emoji: reaction.emoji, users: reaction.users.filter((user) => user.userId !== userId) }
        : reaction,
    )
    .filter((reaction) => reaction.users.length > 0);
}
