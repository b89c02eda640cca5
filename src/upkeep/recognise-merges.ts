// The thin I/O half of recognising a merge of docsync's content, whoever merged it: reads the
// tracked change requests (one service read each, usually one: the open one docsync keeps) and the
// origins of their revisions, judges them (judgeMergedChangeRequest, planMergedRevisions), records
// each merged revision that is docsync's own, then settles the change requests seen merged or closed.
// The space poll calls it only for a revision docsync has no origin for: the path to an export.
import { ApiError } from '../api/api-error.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { ChangeRequest } from '../api/schemas/change-request-schema.js';
import type { MappingState, MappingStateStore } from '../state/mapping-state.js';
import { judgeMergedChangeRequest, type MergeJudgement } from './judge-merged-change-request.js';
import {
  changeRequestsToRead,
  type MergedRevisionsPlan,
  planMergedRevisions,
} from './plan-merged-revisions.js';

export interface RecogniseMergesInput {
  api: DocsApiClient;
  store: MappingStateStore;
  mapping: string;
  space: string;
  /** The space's current revision, which has no origin. */
  revision: string;
  state: MappingState;
  signal: AbortSignal;
  dryRun: boolean;
}

export async function recogniseMerges(input: RecogniseMergesInput): Promise<MergedRevisionsPlan> {
  const { api, store, space, signal } = input;
  const toRead = changeRequestsToRead(await store.trackedChangeRequests(input.mapping), input.state);
  const judged: Array<{ id: string; judgement: MergeJudgement }> = [];
  for (const tracked of toRead) {
    const changeRequest = await readChangeRequest(api, space, tracked.id, signal);
    const merged = changeRequest?.status === 'merged' ? changeRequest : undefined;
    const [revisionOrigin, mergedOrigin] = await Promise.all([
      merged === undefined ? undefined : store.revisionOrigin(space, merged.revision),
      merged?.revisionMerged === undefined ? undefined : store.revisionOrigin(space, merged.revisionMerged),
    ]);
    judged.push({
      id: tracked.id,
      judgement: judgeMergedChangeRequest(input.mapping, {
        tracked,
        changeRequest,
        revisionOrigin,
        mergedOrigin,
      }),
    });
  }
  const plan = planMergedRevisions(input.mapping, input.revision, judged);
  if (!input.dryRun) {
    // Origins first: a poll that stops in between reads the change request again, never loses it.
    for (const { revision, origin } of plan.origins)
      await store.recordRevisionOrigin(space, revision, origin);
    for (const id of plan.settle) await store.settleChangeRequest(input.mapping, id);
  }
  return plan;
}

/** The change request, or undefined when the service no longer has it. */
async function readChangeRequest(
  api: DocsApiClient,
  space: string,
  id: string,
  signal: AbortSignal,
): Promise<ChangeRequest | undefined> {
  try {
    return await api.changeRequests.get(space, id, { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}
