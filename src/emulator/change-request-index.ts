// Change requests by space, rebuilt only when something new was stored (the state's seq moved):
// listing a space's change requests must not scan every change request of every space.
import type { EmulatorState, StoredChangeRequest } from './emulator-state.js';

const indexes = new WeakMap<EmulatorState, { seq: number; bySpace: Map<string, StoredChangeRequest[]> }>();

export function changeRequestsOfSpace(state: EmulatorState, spaceId: string): readonly StoredChangeRequest[] {
  let index = indexes.get(state);
  if (index === undefined || index.seq !== state.seq) {
    const bySpace = new Map<string, StoredChangeRequest[]>();
    for (const cr of Object.values(state.changeRequests)) {
      const list = bySpace.get(cr.spaceId);
      if (list === undefined) bySpace.set(cr.spaceId, [cr]);
      else list.push(cr);
    }
    index = { seq: state.seq, bySpace };
    indexes.set(state, index);
  }
  return index.bySpace.get(spaceId) ?? [];
}
