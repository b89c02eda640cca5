// Change request reviews as the local service shows them. A review names the revision it looked
// at; once the change request's content moves on, the review is `outdated`.
import type { EmulatorContext } from '../emulator-context.js';
import type { StoredChangeRequest, StoredReview } from '../emulator-state.js';
import { renderUserById } from './render-user.js';

export function reviewPath(changeRequest: StoredChangeRequest, reviewId: string): string {
  return `/v1/spaces/${changeRequest.spaceId}/change-requests/${changeRequest.id}/reviews/${reviewId}`;
}

export function renderReview(ctx: EmulatorContext, changeRequest: StoredChangeRequest, review: StoredReview) {
  return {
    object: 'change-request-review' as const,
    id: review.id,
    revision: review.revision,
    reviewer: renderUserById(ctx, review.reviewerId),
    status: review.status,
    outdated: review.revision !== changeRequest.revision,
    createdAt: review.createdAt,
    updatedAt: review.updatedAt,
  };
}
