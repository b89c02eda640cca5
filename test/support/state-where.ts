// Waits for a mapping's state to reach what a test expects, and gives that state: how a test sees
// that a job of the daemon ran.
import type { MappingState, MappingStateStore } from '../../src/state/mapping-state.js';
import { waitFor } from './wait-for.js';

export function stateWhere(
  store: Pick<MappingStateStore, 'get'>,
  mapping: string,
  test: (state: MappingState) => boolean,
  what: string,
  timeoutMs?: number,
): Promise<MappingState> {
  return waitFor(
    async () => {
      const current = await store.get(mapping);
      return test(current) ? current : undefined;
    },
    what,
    timeoutMs,
  );
}

/** The mapping's state once the export of `revision` ran, whatever its result. */
export function exportOf(
  store: Pick<MappingStateStore, 'get'>,
  mapping: string,
  revision: string,
  what: string,
): Promise<MappingState> {
  return stateWhere(store, mapping, (state) => state.lastExport?.revision === revision, what);
}
