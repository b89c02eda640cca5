// An outdated change request brought up to date with the main content, as the update job and the
// merge job (before merging) both do it: the update, then its revision's origin carried over (an
// updated import stays docsync's own), then its links checked again. A conflict stops at the update.

import { checkLinksKind } from '../../jobs/check-links/check-links-kind.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { MappingConfig } from '../config/mapping-schema.js';
import type { QueueTarget } from '../queue/job-kind.js';
import type { MappingStateStore } from '../state/mapping-state.js';
import { carryOrigin } from './docsync-revision.js';

/** What it needs of a job's context: a job passes `{ ...ctx, api }`. */
export interface UpdateAndCarryDeps {
  api: { changeRequests: Pick<DocsApiClient['changeRequests'], 'update'> };
  stores: { mappings: MappingStateStore };
  queues: QueueTarget;
  signal: AbortSignal;
}

export interface UpdateTarget {
  mapping: Pick<MappingConfig, 'name' | 'links'>;
  space: string;
  changeRequest: { id: string; revision: string };
}

/** `updated`: the new revision, origin carried and link check queued; `conflicts`: nothing more done. */
export type UpdateResult = { result: 'updated' | 'conflicts'; revision: string };

export async function updateAndCarry(deps: UpdateAndCarryDeps, target: UpdateTarget): Promise<UpdateResult> {
  const { mapping, space, changeRequest } = target;
  const updated = await deps.api.changeRequests.update(space, changeRequest.id, { signal: deps.signal });
  if (updated.result === 'conflicts') return { result: 'conflicts', revision: updated.revision };
  await carryOrigin(deps.stores.mappings, space, changeRequest.revision, updated.revision, {
    kind: 'update',
    mapping: mapping.name,
  });
  await checkLinksKind.enqueue(deps.queues, {
    space,
    changeRequest: changeRequest.id,
    revision: updated.revision,
    comment: mapping.links.comment,
  });
  return { result: 'updated', revision: updated.revision };
}
