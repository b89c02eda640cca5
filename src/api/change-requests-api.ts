// Change requests of a space: listing, creating, editing, bringing up to date with main, merging,
// exporting as PDF, and their reviews.
import { apiPath } from './api-path.js';
import type { CallOptions, ListAllOptions, ListOptions } from './call-options.js';
import type { HttpTransport } from './http-transport.js';
import { listAll } from './list-all.js';
import {
  type ChangeRequestResult,
  changeRequestResultSchema,
} from './schemas/change-request-result-schema.js';
import {
  type ChangeRequestReview,
  changeRequestReviewSchema,
} from './schemas/change-request-review-schema.js';
import { type ChangeRequest, changeRequestSchema } from './schemas/change-request-schema.js';
import { type Page, pageOf } from './schemas/page-of.js';
import { type PdfResult, pdfResultSchema } from './schemas/pdf-result-schema.js';
import type { ChangeRequestStatus, ReviewStatus } from './schemas/service-enums.js';

const changeRequestPageSchema = pageOf(changeRequestSchema);
const reviewPageSchema = pageOf(changeRequestReviewSchema);

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
  status?: ChangeRequestStatus;
}

export interface ReviewSubmission {
  status: ReviewStatus;
  /** A comment posted with the review: a document, as the service takes comment bodies. */
  comment?: { markdown: string };
}

export class ChangeRequestsApi {
  constructor(private readonly transport: HttpTransport) {}

  /** `GET /spaces/{s}/change-requests`. */
  list(spaceId: string, options: ChangeRequestListOptions = {}): Promise<Page<ChangeRequest>> {
    return this.transport.request('GET', apiPath`/spaces/${spaceId}/change-requests`, {
      query: {
        page: options.page,
        limit: options.limit,
        status: options.status,
        contributor: options.contributor,
      },
      signal: options.signal,
      schema: changeRequestPageSchema,
    });
  }

  listAll(
    spaceId: string,
    options: ListAllOptions<ChangeRequestListOptions> = {},
  ): AsyncGenerator<ChangeRequest, void, undefined> {
    return listAll(apiPath`/spaces/${spaceId}/change-requests`, (cursor) =>
      this.list(spaceId, { ...options, ...cursor }),
    );
  }

  /** `POST /spaces/{s}/change-requests`: 201. Never retried blindly: a retry could open two. */
  create(
    spaceId: string,
    changeRequest: { subject?: string } = {},
    options: CallOptions = {},
  ): Promise<ChangeRequest> {
    return this.transport.request('POST', apiPath`/spaces/${spaceId}/change-requests`, {
      body: changeRequest,
      signal: options.signal,
      schema: changeRequestSchema,
    });
  }

  /** `GET /spaces/{s}/change-requests/{cr}`. */
  get(spaceId: string, changeRequest: ChangeRequestRef, options: CallOptions = {}): Promise<ChangeRequest> {
    return this.transport.request('GET', apiPath`/spaces/${spaceId}/change-requests/${changeRequest}`, {
      signal: options.signal,
      schema: changeRequestSchema,
    });
  }

  /** `PATCH /spaces/{s}/change-requests/{cr}`: subject and status (open, draft, archived). */
  patch(
    spaceId: string,
    changeRequest: ChangeRequestRef,
    changes: ChangeRequestPatch,
    options: CallOptions = {},
  ): Promise<ChangeRequest> {
    return this.transport.request('PATCH', apiPath`/spaces/${spaceId}/change-requests/${changeRequest}`, {
      body: changes,
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
    return this.transport.request(
      'POST',
      apiPath`/spaces/${spaceId}/change-requests/${changeRequest}/merge`,
      {
        signal: options.signal,
        schema: changeRequestResultSchema,
      },
    );
  }

  /** `POST .../update`: pulls main content in (clears `outdated`); the new revision, `result: 'update'`. */
  update(
    spaceId: string,
    changeRequest: ChangeRequestRef,
    options: CallOptions = {},
  ): Promise<ChangeRequestResult> {
    return this.transport.request(
      'POST',
      apiPath`/spaces/${spaceId}/change-requests/${changeRequest}/update`,
      {
        signal: options.signal,
        schema: changeRequestResultSchema,
      },
    );
  }

  /** `GET .../pdf`: an address of the PDF, of one page when `only` and `page` are given. */
  getPdf(
    spaceId: string,
    changeRequest: ChangeRequestRef,
    options: CallOptions & { only?: boolean | undefined; page?: string | undefined } = {},
  ): Promise<PdfResult> {
    return this.transport.request('GET', apiPath`/spaces/${spaceId}/change-requests/${changeRequest}/pdf`, {
      query: { only: options.only, page: options.page },
      signal: options.signal,
      schema: pdfResultSchema,
    });
  }

  /** `GET .../reviews`. */
  listReviews(
    spaceId: string,
    changeRequest: ChangeRequestRef,
    options: ListOptions = {},
  ): Promise<Page<ChangeRequestReview>> {
    return this.transport.request(
      'GET',
      apiPath`/spaces/${spaceId}/change-requests/${changeRequest}/reviews`,
      {
        query: { page: options.page, limit: options.limit },
        signal: options.signal,
        schema: reviewPageSchema,
      },
    );
  }

  listReviewsAll(
    spaceId: string,
    changeRequest: ChangeRequestRef,
    options: ListAllOptions<ListOptions> = {},
  ): AsyncGenerator<ChangeRequestReview, void, undefined> {
    return listAll(apiPath`/spaces/${spaceId}/change-requests/${changeRequest}/reviews`, (cursor) =>
      this.listReviews(spaceId, changeRequest, { ...options, ...cursor }),
    );
  }

  /** `POST .../reviews`: 201, a review against the change request's current revision. */
  submitReview(
    spaceId: string,
    changeRequest: ChangeRequestRef,
    review: ReviewSubmission,
    options: CallOptions = {},
  ): Promise<ChangeRequestReview> {
    return this.transport.request(
      'POST',
      apiPath`/spaces/${spaceId}/change-requests/${changeRequest}/reviews`,
      {
        body: review,
        signal: options.signal,
        schema: changeRequestReviewSchema,
      },
    );
  }
}
