// Keeps docsync's one comment on a change request in step with the last link check and the import
// that made the revision: reads the change request's comments, finds the comment by its marker,
// and applies the plan of plan-link-comment.ts. The only I/O of the comment upkeep.
import type { ContentTarget } from '../api/call-options.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { Comment } from '../api/schemas/comment-schema.js';
import type { Logger } from '../log/create-logger.js';
import { findLinkComment, type LinkCommentAction, planLinkComment } from './plan-link-comment.js';
import { isLinkCommentMarkdown, type LinkCommentFindings } from './render-link-comment.js';

export interface LinkCommentDeps {
  api: DocsApiClient;
  log: Logger;
  signal: AbortSignal;
  /** Plan and log, change nothing. */
  dryRun: boolean;
}

export interface LinkCommentOutcome {
  action: LinkCommentAction;
  commentId?: string;
}

export async function keepLinkComment(
  deps: LinkCommentDeps,
  thread: { spaceId: string; changeRequestId: string },
  findings: LinkCommentFindings,
): Promise<LinkCommentOutcome> {
  const { api, log, signal } = deps;
  const counts = { broken: findings.broken.length, warnings: findings.warnings.count };
  const comments = await readComments(api, thread, signal);
  const found = findLinkComment(comments);
  if (found !== undefined && found.duplicates > 0)
    log.warn(
      { comment: found.comment.id, duplicates: found.duplicates },
      'several link comments found, keeping the oldest',
    );
  const plan = planLinkComment(found?.comment, findings);
  if (plan.action === 'leave') {
    log.debug({ comment: plan.commentId }, 'link comment up to date');
    return plan.commentId === undefined
      ? { action: 'leave' }
      : { action: 'leave', commentId: plan.commentId };
  }
  if (deps.dryRun) {
    log.info({ action: plan.action, ...counts }, 'dry run: would change the link comment');
    return plan.action === 'create'
      ? { action: plan.action }
      : { action: plan.action, commentId: plan.commentId };
  }
  if (plan.action === 'create') {
    // Not retried by the client (a retry could post twice); a retry of the whole job finds the
    // comment by its marker if the first attempt did post it.
    const created = await api.comments.create(thread, { body: { markdown: plan.markdown } }, { signal });
    log.info({ comment: created.id, ...counts }, 'link comment created');
    return { action: 'create', commentId: created.id };
  }
  await api.comments.update(thread, plan.commentId, plan.changes, { signal });
  log.info({ comment: plan.commentId, action: plan.action, ...counts }, MESSAGES[plan.action]);
  return { action: plan.action, commentId: plan.commentId };
}

const MESSAGES = {
  edit: 'link comment edited',
  resolve: 'link comment resolved',
  reopen: 'link comment reopened',
} as const;

async function readComments(
  api: DocsApiClient,
  thread: ContentTarget,
  signal: AbortSignal,
): Promise<Comment[]> {
  const comments: Comment[] = [];
  // Resolved ones too: a resolved link comment is reopened, not replaced by a second one. Only
  // marked ones are kept, however long the discussion. Bodies as markdown: the service may give
  // them as documents otherwise, where the marker cannot be seen.
  const options = { status: 'all', order: 'asc', format: 'markdown', signal } as const;
  for await (const comment of api.comments.listAll(thread, options))
    if (isLinkCommentMarkdown(comment.body?.markdown ?? '')) comments.push(comment);
  return comments;
}
