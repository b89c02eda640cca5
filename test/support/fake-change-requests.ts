// The service's change request calls as the update and merge jobs make them, for their unit tests:
// each read answers the next change request of a script (the last one again once it runs out), the
// update and merge answer what the test says, and every call is kept in order.
import type { ChangeRequestsApi } from '../../src/api/change-requests-api.js';
import type { DocsApiClient } from '../../src/api/docs-api-client.js';
import type { ChangeRequestResult } from '../../src/api/schemas/change-request-result-schema.js';
import type { ChangeRequestReview } from '../../src/api/schemas/change-request-review-schema.js';
import type { ChangeRequest } from '../../src/api/schemas/change-request-schema.js';

/** A change request as the service answers it: open, current, no comments, unless `fields` say otherwise. */
export function changeRequestOf(fields: Partial<ChangeRequest> = {}): ChangeRequest {
  return {
    object: 'change-request',
    id: 'cr_1',
    number: 7,
    status: 'open',
    subject: 'docs: edit the guide (abc1234)',
    createdAt: '2026-03-01T10:00:00Z',
    updatedAt: '2026-03-01T11:00:00Z',
    revision: 'rev-cr-1',
    revisionInitial: 'rev-main-0',
    comments: 0,
    outdated: false,
    ...fields,
  };
}

/** An approval of `revision` by `reviewer`. */
export function approvalOf(revision: string, reviewer = 'usr_ana'): ChangeRequestReview {
  return {
    object: 'change-request-review',
    id: `review-${reviewer}-${revision}`,
    revision,
    reviewer: { id: reviewer, displayName: reviewer },
    status: 'approved',
    createdAt: '2026-03-01T11:30:00Z',
    updatedAt: '2026-03-01T11:30:00Z',
  };
}

export interface ChangeRequestScript {
  /** What each read of the change request answers, in turn. */
  reads: readonly ChangeRequest[];
  reviews?: readonly ChangeRequestReview[];
  update?: () => Promise<ChangeRequestResult>;
  merge?: () => Promise<ChangeRequestResult>;
}

export interface FakeChangeRequests {
  api: DocsApiClient;
  /** `get`, `update`, `merge`, `reviews`, in the order the job called them. */
  calls: string[];
}

type ChangeRequestCalls = Pick<ChangeRequestsApi, 'get' | 'update' | 'merge' | 'listReviewsAll'>;

export function fakeChangeRequests(script: ChangeRequestScript): FakeChangeRequests {
  const calls: string[] = [];
  let reads = 0;
  const unexpected = async (): Promise<ChangeRequestResult> => {
    throw new Error('the test did not expect this call');
  };
  const changeRequests: ChangeRequestCalls = {
    get: async () => {
      calls.push('get');
      const answer = script.reads[Math.min(reads, script.reads.length - 1)];
      reads += 1;
      if (answer === undefined) throw new Error('the script has no change request to read');
      return answer;
    },
    update: async () => {
      calls.push('update');
      return await (script.update ?? unexpected)();
    },
    merge: async () => {
      calls.push('merge');
      return await (script.merge ?? unexpected)();
    },
    listReviewsAll: async function* () {
      calls.push('reviews');
      yield* script.reviews ?? [];
    },
  };
  return {
    api: { changeRequests } as Pick<DocsApiClient, 'changeRequests'> as DocsApiClient,
    calls,
  };
}
