// docsync's change requests of a mapping as the service holds them: those whose subject carries the
// mapping's marker, open, draft or merged, with the commit each one's subject names as imported.
// What Redis forgot of the imports (the last imported commit, the change request kept, the merges
// made by people while no docsync watched) is found again from them (src/recovery/).
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { ChangeRequest } from '../api/schemas/change-request-schema.js';
import { importedCommitOf } from '../import/change-request-subject.js';

export interface DocsyncChangeRequest {
  id: string;
  number: number;
  status: 'open' | 'draft' | 'merged';
  /** The commit (abbreviated) whose content the subject says docsync imported; none for a working copy. */
  importedCommit: string | undefined;
  /** Once merged: the revision the merge made. */
  revisionMerged: string | undefined;
  /** The space's revision the change request was opened on. */
  revisionInitial: string;
}

/** Archived ones put nothing in the space and keep nothing open: they are left out. */
const STATUSES = ['open', 'draft', 'merged'] as const;

/** The mapping's change requests, newest (highest number) first. */
export async function listDocsyncChangeRequests(
  api: DocsApiClient,
  space: string,
  marker: string,
  signal: AbortSignal,
): Promise<DocsyncChangeRequest[]> {
  const found: DocsyncChangeRequest[] = [];
  for (const status of STATUSES)
    for await (const changeRequest of api.changeRequests.listAll(space, { status, signal }))
      if (changeRequest.subject.includes(marker)) found.push(describe(changeRequest, status, marker));
  return found.sort((a, b) => b.number - a.number);
}

function describe(
  changeRequest: ChangeRequest,
  status: DocsyncChangeRequest['status'],
  marker: string,
): DocsyncChangeRequest {
  return {
    id: changeRequest.id,
    number: changeRequest.number,
    status,
    importedCommit: importedCommitOf(changeRequest.subject, marker),
    revisionMerged: changeRequest.revisionMerged,
    revisionInitial: changeRequest.revisionInitial,
  };
}
