// What a commit's status is made of, read when the report runs: the mapping's last import, and for
// a commit in a change request, that change request (its state, number and address), docsync's
// last link check of it and the approvals its merge policy still needs.

import type { ReportCommitStatusPayload } from '../../jobs/report-commit-status/report-commit-status-kind.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import type { LinkCheckStore } from '../state/link-check-store.js';
import type { MappingStateStore } from '../state/mapping-state.js';
import { type ApprovalReview, approvalsMissing, type CommitStatusFacts } from './describe-commit-status.js';

export interface CommitStatusFactsDeps {
  api: DocsApiClient | undefined;
  /** The service's API address (service.baseUrl): the change request's address when the service gives no app URL. */
  serviceBaseUrl: string | undefined;
  mappings: MappingStateStore;
  links: LinkCheckStore;
  signal: AbortSignal;
}

const CHANGE_REQUEST_EVENTS: ReadonlySet<string> = new Set(['imported', 'links-checked', 'merged']);

export async function readCommitStatusFacts(
  deps: CommitStatusFactsDeps,
  mapping: MappingConfig,
  payload: ReportCommitStatusPayload,
): Promise<CommitStatusFacts> {
  const facts: CommitStatusFacts = {
    event: payload.event,
    sha: payload.sha,
    mapping: mapping.name,
    failureCode: payload.failureCode,
  };
  if (payload.event === 'importing')
    return { ...facts, lastImportedSha: (await deps.mappings.get(mapping.name)).lastImportedSha };
  if (!CHANGE_REQUEST_EVENTS.has(payload.event)) return facts;
  const id = payload.changeRequest ?? (await deps.mappings.get(mapping.name)).changeRequestId;
  return { ...facts, ...(await changeRequestFacts(deps, mapping, id)) };
}

async function changeRequestFacts(
  deps: CommitStatusFactsDeps,
  mapping: MappingConfig,
  id: string | undefined,
): Promise<Pick<CommitStatusFacts, 'changeRequest'>> {
  if (id === undefined) return {};
  const { api, signal } = deps;
  if (api === undefined)
    throw new DocsyncError(
      'SERVICE_NOT_CONFIGURED',
      'report-commit-status needs service.baseUrl and service.token to read the change request',
    );
  const [cr, check] = await Promise.all([
    api.changeRequests.get(mapping.space, id, { signal }),
    deps.links.get(mapping.space, id),
  ]);
  const open = cr.status === 'open' || cr.status === 'draft';
  let missing = 0;
  if (open && mapping.merge.enabled && mapping.merge.approvals > 0) {
    const reviews: ApprovalReview[] = [];
    for await (const review of api.changeRequests.listReviewsAll(mapping.space, id, { signal }))
      reviews.push({
        reviewerId: review.reviewer.id,
        status: review.status,
        revision: review.revision,
        createdAt: review.createdAt,
      });
    missing = approvalsMissing(mapping.merge.approvals, reviews, cr.revision);
  }
  const app = cr.urls?.app;
  return {
    changeRequest: {
      number: cr.number,
      status: cr.status,
      url: app ?? `${deps.serviceBaseUrl ?? ''}/spaces/${mapping.space}/change-requests/${id}`,
      brokenLinks: check?.revision === cr.revision ? check.broken.length : undefined,
      ...(check?.revision === cr.revision ? firstPlace(check.broken) : {}),
      approvalsMissing: missing,
    },
  };
}

/** The place in git of the first broken link that has one: `docs/setup.md:12`. */
function firstPlace(broken: readonly { file?: string | undefined; line?: number | undefined }[]) {
  const link = broken.find((candidate) => candidate.file !== undefined);
  if (link?.file === undefined) return {};
  return { firstBrokenLink: link.line === undefined ? link.file : `${link.file}:${link.line}` };
}
