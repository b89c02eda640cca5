// The facts a merge verdict is made of, read fresh from the service and docsync's last link check:
// the change request itself, its reviews, its open comments, its broken links. A poll, which has
// read the last checks of all its change requests in one go, passes each one in.
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { ChangeRequest } from '../api/schemas/change-request-schema.js';
import { isLinkCommentMarkdown } from '../links/render-link-comment.js';
import type { CheckedRevision, LinkCheckStore } from '../state/link-check-store.js';
import type { MergeFacts, ReviewFact } from './merge-verdict.js';

export async function readMergeFacts(
  api: DocsApiClient,
  links: LinkCheckStore,
  space: string,
  changeRequest: ChangeRequest,
  signal?: AbortSignal,
): Promise<MergeFacts> {
  const [checked] = await links.checkedRevisions(space, [changeRequest.id]);
  return readMergeFactsGiven(api, checked, space, changeRequest, signal);
}

/** The same facts, with docsync's last link check of the change request already read (a poll reads them all at once). */
export async function readMergeFactsGiven(
  api: DocsApiClient,
  check: CheckedRevision | undefined,
  space: string,
  changeRequest: ChangeRequest,
  signal?: AbortSignal,
): Promise<MergeFacts> {
  const options = signal === undefined ? {} : { signal };
  const reviews: ReviewFact[] = [];
  for await (const review of api.changeRequests.listReviewsAll(space, changeRequest.id, options)) {
    reviews.push({
      reviewerId: review.reviewer.id,
      reviewerName: review.reviewer.displayName ?? review.reviewer.id,
      status: review.status,
      revision: review.revision,
      createdAt: review.createdAt,
    });
  }
  const brokenLinks = check?.revision === changeRequest.revision ? check.broken : undefined;
  return {
    status: changeRequest.status,
    subject: changeRequest.subject,
    revision: changeRequest.revision,
    outdated: changeRequest.outdated,
    reviews,
    openComments: await openCommentsOf(api, space, changeRequest, signal),
    brokenLinks,
  };
}

/** Open comments by people: docsync's own link comment is left out, the broken links say that already. */
async function openCommentsOf(
  api: DocsApiClient,
  space: string,
  changeRequest: ChangeRequest,
  signal?: AbortSignal,
): Promise<number> {
  if (changeRequest.comments === 0) return 0;
  let count = 0;
  const thread = { spaceId: space, changeRequestId: changeRequest.id };
  // Bodies as markdown, where docsync's marker shows; as documents it could not be told apart.
  for await (const comment of api.comments.listAll(thread, {
    status: 'open',
    format: 'markdown',
    ...(signal === undefined ? {} : { signal }),
  })) {
    if (!isLinkCommentMarkdown(comment.body?.markdown ?? '')) count += 1;
  }
  return count;
}
