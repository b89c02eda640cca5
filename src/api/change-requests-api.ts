// Change requests of a space: listing, creating, editing, bringing up to date with main, merging,
// their reviews, and their links in one list.
import { z } from 'zod';
import { type ApiPath, apiPath } from './api-path.js';
import type { CallOptions, LinkListOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { PagedList } from './paged-list.js';
import {
  type ChangeRequestResult,
  changeRequestResultSchema,
} from './schemas/change-request-result-schema.js';
import {
  type ChangeRequestReview,
  changeRequestReviewSchema,
} from './schemas/change-request-review-schema.js';
import { type ChangeRequest, changeRequestSchema } from './schemas/change-request-schema.js';
import { type LinkCheckList, linkCheckListSchema } from './schemas/link-check-list-schema.js';
import { type Page, pageOf } from './schemas/page-of.js';
import {
  CHANGE_REQUEST_PATCH_STATUSES,
  type ChangeRequestPatchStatus,
  type ChangeRequestStatus,
  type ReviewStatus,
} from './schemas/service-enums.js';

/** A change request by its id or by its number in the space. */
export type ChangeRequestRef = string | number;

export interface ChangeRequestListOptions extends ListOptions {
  /** Default `open`. */
  status?: ChangeRequestStatus | undefined;
  /** Only change requests this user contributed to. */
  contributor?: string | undefined;
}

export interface ChangeRequestPatch {
  /** At most 100 characters. */
  subject?: string;
  /** Never `merged`: merging is `merge()`, which the service checks against its merge rules. */
  status?: ChangeRequestPatchStatus;
}

// The PATCH body as the service takes it, checked before it is sent: a caller bypassing the types
// (a status read from elsewhere) fails here rather than asking the service to mark it merged.
const changeRequestPatchSchema = z.strictObject({
  subject: z.string().optional(),
  status: z.enum(CHANGE_REQUEST_PATCH_STATUSES).optional(),
});

export interface ReviewSubmission {
  status: ReviewStatus;
  /** A comment posted with the review: a document, as the service takes comment bodies. */
  comment?: { markdown: string };
}

/** `/spaces/{s}/change-requests`, or one of them. */
function changeRequestPath(spaceId: string, changeRequest?: ChangeRequestRef): ApiPath {
  return changeRequest === undefined
    ? apiPath`/spaces/${spaceId}/change-requests`
    : apiPath`/spaces/${spaceId}/change-requests/${changeRequest}`;
}

export class ChangeRequestsApi {
  private readonly changeRequests: PagedList<Page<ChangeRequest>, ChangeRequestListOptions>;
  private readonly reviews: PagedList<Page<ChangeRequestReview>>;
  private readonly links: PagedList<LinkCheckList, LinkListOptions>;

  constructor(private readonly transport: HttpTransport) {
    this.changeRequests = new PagedList(transport, pageOf(changeRequestSchema), (options) => ({
      status: options.status,
      contributor: options.contributor,
    }));
    this.reviews = new PagedList(transport, pageOf(changeRequestReviewSchema));
    this.links = new PagedList(transport, linkCheckListSchema, (options) => ({ status: options.status }));
  }

  /** `GET /spaces/{s}/change-requests`. */
  list(spaceId: string, options: ChangeRequestListOptions = {}): Promise<Page<ChangeRequest>> {
    return this.changeRequests.page(changeRequestPath(spaceId), options);
  }

  listAll(
    spaceId: string,
    options: ListAllOptions<ChangeRequestListOptions> = {},
  ): AsyncGenerator<ChangeRequest, void, undefined> {
    return this.changeRequests.all(changeRequestPath(spaceId), options);
  }

  /** `POST /spaces/{s}/change-requests`: 201. Never retried blindly: a retry could open two. */
  create(
    spaceId: string,
    changeRequest: { subject?: string } = {},
    options: CallOptions = {},
  ): Promise<ChangeRequest> {
    return this.transport.request('POST', changeRequestPath(spaceId), {
      body: changeRequest,
      signal: options.signal,
      schema: changeRequestSchema,
    });
  }

  /** `GET /spaces/{s}/change-requests/{cr}`. */
  get(spaceId: string, changeRequest: ChangeRequestRef, options: CallOptions = {}): Promise<ChangeRequest> {
    return this.transport.request('GET', changeRequestPath(spaceId, changeRequest), {
      signal: options.signal,
      schema: changeRequestSchema,
    });
  }

  /**
   * `PATCH /spaces/{s}/change-requests/{cr}`: subject and status (open, draft, archived). Anything
   * else (`status: 'merged'`) is refused with a TypeError before a request is sent.
   */
  async patch(
    spaceId: string,
    changeRequest: ChangeRequestRef,
    changes: ChangeRequestPatch,
    options: CallOptions = {},
  ): Promise<ChangeRequest> {
    const body = changeRequestPatchSchema.safeParse(changes);
    if (!body.success)
      throw new TypeError('a change request PATCH takes a subject and a status of draft, open or archived', {
        cause: body.error,
      });
    return this.transport.request('PATCH', changeRequestPath(spaceId, changeRequest), {
      body: body.data,
      signal: options.signal,
      schema: changeRequestSchema,
    });
  }

  /** `POST .../merge`: the space's new revision, `result: 'merge'`. */
  merge(
    spaceId: string,
    changeRequest: ChangeRequestRef,
    options: CallOptions = {},
  ): Promise<ChangeRequestResult> {
    return this.transport.request('POST', apiPath`${changeRequestPath(spaceId, changeRequest)}/merge`, {
      signal: options.signal,
      schema: changeRequestResultSchema,
    });
  }

  /** `POST .../update`: pulls main content in (clears `outdated`); the new revision, `result: 'update'`. */
  update(
    spaceId: string,
    changeRequest: ChangeRequestRef,
    options: CallOptions = {},
  ): Promise<ChangeRequestResult> {
    return this.transport.request('POST', apiPath`${changeRequestPath(spaceId, changeRequest)}/update`, {
      signal: options.signal,
      schema: changeRequestResultSchema,
    });
  }

  /** `GET .../reviews`. */
  listReviews(
    spaceId: string,
    changeRequest: ChangeRequestRef,
    options: ListOptions = {},
  ): Promise<Page<ChangeRequestReview>> {
    return this.reviews.page(apiPath`${changeRequestPath(spaceId, changeRequest)}/reviews`, options);
  }

  listReviewsAll(
    spaceId: string,
    changeRequest: ChangeRequestRef,
    options: ListAllOptions<ListOptions> = {},
  ): AsyncGenerator<ChangeRequestReview, void, undefined> {
    return this.reviews.all(apiPath`${changeRequestPath(spaceId, changeRequest)}/reviews`, options);
  }

  /**
   * `GET .../links`: one page of the links of the change request's content (every page of it), and
   * `stats` over all of them. Not in the interface's text: the service's public document has it
   * (`listChangeRequestLinks`).
   */
  listLinks(
    spaceId: string,
    changeRequest: ChangeRequestRef,
    options: LinkListOptions = {},
  ): Promise<LinkCheckList> {
    return this.links.page(apiPath`${changeRequestPath(spaceId, changeRequest)}/links`, options);
  }

  /** `POST .../reviews`: 201, a review against the change request's current revision. */
  submitReview(
    spaceId: string,
    changeRequest: ChangeRequestRef,
    review: ReviewSubmission,
    options: CallOptions = {},
  ): Promise<ChangeRequestReview> {
    return this.transport.request('POST', apiPath`${changeRequestPath(spaceId, changeRequest)}/reviews`, {
      body: review,
      signal: options.signal,
      schema: changeRequestReviewSchema,
    });
  }
}
