// Finds the one open change request docsync keeps for a mapping and branch, or makes it: first
// from the state (the id recorded at the last import), then, when the state was lost, from the
// marker in the subjects of the space's open and draft change requests. A merged or archived one
// is let go: the next import starts a new one. A new one gets `subject`; a found one keeps its own
// until the import went through, when the import names its commit in it (run-import.ts).

import { ApiError } from '../api/api-error.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { ChangeRequest } from '../api/schemas/change-request-schema.js';
import type { Logger } from '../log/create-logger.js';

export interface KeepChangeRequestInput {
  api: DocsApiClient;
  space: string;
  knownId: string | undefined;
  marker: string;
  subject: string;
  log: Logger;
  signal?: AbortSignal;
}

export type KeptChangeRequest = { changeRequest: ChangeRequest; how: 'state' | 'marker' | 'created' };

const KEPT = new Set(['open', 'draft']);

export async function keepChangeRequest(input: KeepChangeRequestInput): Promise<KeptChangeRequest> {
  const { api, space, log } = input;
  const options = input.signal === undefined ? {} : { signal: input.signal };
  const found = (await fromState(input)) ?? (await fromMarker(input));
  if (found !== undefined) return found;
  const created = await api.changeRequests.create(space, { subject: input.subject }, options);
  log.info({ cr: created.id, number: created.number }, 'change request created');
  return { changeRequest: created, how: 'created' };
}

async function fromState(input: KeepChangeRequestInput): Promise<KeptChangeRequest | undefined> {
  if (input.knownId === undefined) return undefined;
  try {
    const changeRequest = await input.api.changeRequests.get(
      input.space,
      input.knownId,
      input.signal === undefined ? {} : { signal: input.signal },
    );
    if (KEPT.has(changeRequest.status)) return { changeRequest, how: 'state' };
    input.log.info(
      { cr: changeRequest.id, status: changeRequest.status },
      'kept change request is closed, starting a new one',
    );
    return undefined;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

async function fromMarker(input: KeepChangeRequestInput): Promise<KeptChangeRequest | undefined> {
  for (const status of ['open', 'draft'] as const) {
    let newest: ChangeRequest | undefined;
    for await (const changeRequest of input.api.changeRequests.listAll(input.space, {
      status,
      ...(input.signal === undefined ? {} : { signal: input.signal }),
    })) {
      if (
        changeRequest.subject.includes(input.marker) &&
        (newest === undefined || changeRequest.number > newest.number)
      )
        newest = changeRequest;
    }
    if (newest !== undefined) {
      input.log.info(
        { cr: newest.id, number: newest.number },
        'change request found again by its subject marker',
      );
      return { changeRequest: newest, how: 'marker' };
    }
  }
  return undefined;
}
