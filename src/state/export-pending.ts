// Whether a service edit the space poll found is still on its way to git: an export was queued for
// it and no export job has finished since. Imports wait for it, and the space poll queues it again
// until it finishes (a failed export runs again as its back-off allows, or on `docsync retry`).
import type { MappingState } from './mapping-state.js';

/**
 * The revision of the export queued and not finished, if any. State written before
 * `exportFinished` existed counts as finished once an export ran (`lastExport`), as it did then.
 */
export function pendingExport(state: MappingState): string | undefined {
  const queued = state.exportQueued;
  if (queued === undefined || queued === state.exportFinished || queued === state.lastExport?.revision)
    return undefined;
  if (state.exportFinished === undefined && state.lastExport !== undefined) return undefined;
  return queued;
}
