// The open change request an import would put its content into, found the way keepChangeRequest
// finds it (the id in the state, else the newest open or draft one whose subject holds the marker),
// but without patching or creating anything: a dry run only looks.
import { ApiError } from '../api/api-error.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { ChangeRequest } from '../api/schemas/change-request-schema.js';

export interface FindKeptChangeRequestInput {
  api: DocsApiClient;
  space: string;
  knownId: string | undefined;
  marker: string;
  signal: AbortSignal;
}

const KEPT = new Set(['open', 'draft']);

export async function findKeptChangeRequest(
  input: FindKeptChangeRequestInput,
): Promise<ChangeRequest | undefined> {
  const { api, space, signal } = input;
  if (input.knownId !== undefined) {
    try {
      const known = await api.changeRequests.get(space, input.knownId, { signal });
      if (KEPT.has(known.status)) return known;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }
  for (const status of ['open', 'draft'] as const) {
    let newest: ChangeRequest | undefined;
    for await (const changeRequest of api.changeRequests.listAll(space, { status, signal }))
      if (
        changeRequest.subject.includes(input.marker) &&
        (newest === undefined || changeRequest.number > newest.number)
      )
        newest = changeRequest;
    if (newest !== undefined) return newest;
  }
  return undefined;
}
