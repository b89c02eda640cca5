// What to do with docsync's link comment on a change request, as a pure function of the comments
// read and the findings (broken links, the import's warnings): create it, edit it, resolve it,
// reopen it, or leave it alone. One comment per change request, ever; it is only written when its
// text or state must change.
import type { CommentChanges } from '../api/comments-api.js';
import type { Comment } from '../api/schemas/comment-schema.js';
import {
  hasFindings,
  isLinkCommentMarkdown,
  type LinkCommentFindings,
  renderLinkComment,
} from './render-link-comment.js';

/** docsync's link comment as read back from the service. */
export interface ExistingLinkComment {
  id: string;
  markdown: string;
  resolved: boolean;
}

export type LinkCommentPlan =
  | { action: 'create'; markdown: string }
  | { action: 'edit' | 'resolve' | 'reopen'; commentId: string; changes: CommentChanges }
  | { action: 'leave'; commentId?: string };

export type LinkCommentAction = LinkCommentPlan['action'];

export function planLinkComment(
  existing: ExistingLinkComment | undefined,
  findings: LinkCommentFindings,
): LinkCommentPlan {
  const markdown = renderLinkComment(findings);
  const open = hasFindings(findings);
  if (existing === undefined)
    // Nothing to fix and nothing said before: no comment is the clean state.
    return open ? { action: 'create', markdown } : { action: 'leave' };

  const changed = existing.markdown !== markdown;
  const body = changed ? { body: { markdown } } : {};
  if (!open) {
    if (existing.resolved) return { action: 'leave', commentId: existing.id };
    // The text says "nothing to fix" too: a resolved comment that still listed the old findings
    // would read as if they stood, and the same ones coming back would not change it.
    return { action: 'resolve', commentId: existing.id, changes: { ...body, resolved: true } };
  }
  if (existing.resolved) {
    // Resolved with these very lists (a person resolved it while they still stood): respect
    // that until the lists change, rather than reopening it on every check.
    if (!changed) return { action: 'leave', commentId: existing.id };
    return { action: 'reopen', commentId: existing.id, changes: { ...body, resolved: false } };
  }
  if (!changed) return { action: 'leave', commentId: existing.id };
  return { action: 'edit', commentId: existing.id, changes: body };
}

export interface FoundLinkComment {
  comment: ExistingLinkComment;
  /** Other comments with the marker, from a race or an old bug; the oldest one is kept. */
  duplicates: number;
}

/**
 * docsync's link comment among a change request's comments: the marker on the first line, and
 * editable by the caller (only the author may edit a body, so someone quoting the marker is not it).
 */
export function findLinkComment(comments: readonly Comment[]): FoundLinkComment | undefined {
  const candidates = comments
    .filter(
      (comment) => comment.permissions?.edit !== false && isLinkCommentMarkdown(comment.body?.markdown ?? ''),
    )
    .sort(
      (a, b) =>
        postedMs(a) - postedMs(b) ||
        // Ids break ties between comments posted within the same millisecond.
        compare(a.id, b.id),
    );
  const [oldest] = candidates;
  if (oldest === undefined) return undefined;
  return {
    comment: {
      id: oldest.id,
      markdown: oldest.body?.markdown ?? '',
      resolved: oldest.status === 'resolved',
    },
    duplicates: candidates.length - 1,
  };
}

/** Offsets make ISO strings sort wrongly as text; an unreadable date sorts first. */
function postedMs(comment: Comment): number {
  return Date.parse(comment.postedAt ?? '') || 0;
}

function compare(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
