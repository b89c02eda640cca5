// Change request records as the interface shows them. `outdated`: the main content moved since the
// change request was made or last updated from it.
import { isClosed } from '../change-request-closed.js';
import type { EmulatorContext } from '../emulator-context.js';
import type { StoredChangeRequest } from '../emulator-state.js';
import { renderUserById } from './render-user.js';

export function isOutdated(ctx: EmulatorContext, cr: StoredChangeRequest): boolean {
  if (isClosed(cr)) return false;
  const space = ctx.state.spaces[cr.spaceId];
  return space !== undefined && (cr.revisionMergedAncestor ?? cr.revisionInitial) !== space.revision;
}

export function renderChangeRequest(ctx: EmulatorContext, cr: StoredChangeRequest) {
  const origin = ctx.origin();
  const comments = Object.values(ctx.state.comments).filter(
    (comment) =>
      comment.changeRequestId === cr.id && comment.status === 'open' && comment.deletedAt === undefined,
  ).length;
  return {
    object: 'change-request' as const,
    id: cr.id,
    number: cr.number,
    status: cr.status,
    subject: cr.subject,
    createdBy: renderUserById(ctx, cr.createdBy),
    createdAt: cr.createdAt,
    updatedAt: cr.updatedAt,
    space: cr.spaceId,
    revision: cr.revision,
    revisionInitial: cr.revisionInitial,
    ...(cr.revisionMergedAncestor === undefined ? {} : { revisionMergedAncestor: cr.revisionMergedAncestor }),
    ...(cr.revisionMerged === undefined ? {} : { revisionMerged: cr.revisionMerged }),
    comments,
    outdated: isOutdated(ctx, cr),
    urls: {
      app: `${origin}/app/s/${cr.spaceId}/change-requests/${cr.number}`,
      location: `${origin}/v1/spaces/${cr.spaceId}/change-requests/${cr.id}`,
    },
  };
}
