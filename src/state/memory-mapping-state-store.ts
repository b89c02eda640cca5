// Mapping state in memory, for `docsync once` in CI pipelines, where there is no Redis: the change
// request is found again through its subject marker instead.
import type {
  MappingState,
  MappingStatePatch,
  MappingStateStore,
  RevisionOrigin,
  TrackedChangeRequest,
} from './mapping-state.js';
import {
  readTracked,
  settledEntry,
  type TrackedEntry,
  trackedEntryOf,
  trackedToDrop,
} from './tracked-change-requests.js';

export class MemoryMappingStateStore implements MappingStateStore {
  readonly #states = new Map<string, MappingState>();
  readonly origins = new Map<string, RevisionOrigin>();
  readonly #tracked = new Map<string, Map<string, TrackedEntry>>();
  readonly #now: () => Date;

  constructor(now: () => Date = () => new Date()) {
    this.#now = now;
  }

  async get(mapping: string): Promise<MappingState> {
    return { ...(this.#states.get(mapping) ?? {}) };
  }

  async update(mapping: string, patch: MappingStatePatch): Promise<void> {
    const next: Record<string, unknown> = { ...(this.#states.get(mapping) ?? {}) };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete next[key];
      else if (value !== undefined) next[key] = value;
    }
    this.#states.set(mapping, next as MappingState);
  }

  async recordRevisionOrigin(space: string, revision: string, origin: RevisionOrigin): Promise<void> {
    this.origins.set(`${space}:${revision}`, origin);
    const tracked = trackedEntryOf(revision, origin, this.#now());
    if (tracked !== undefined) this.#track(origin.mapping, tracked.id, tracked.entry);
  }

  async revisionOrigin(space: string, revision: string): Promise<RevisionOrigin | undefined> {
    return this.origins.get(`${space}:${revision}`);
  }

  async trackedChangeRequests(mapping: string): Promise<TrackedChangeRequest[]> {
    return readTracked(this.#tracked.get(mapping) ?? []);
  }

  async settleChangeRequest(mapping: string, id: string): Promise<void> {
    this.#track(mapping, id, settledEntry(this.#now()));
  }

  #track(mapping: string, id: string, entry: TrackedEntry): void {
    const entries = this.#tracked.get(mapping) ?? new Map<string, TrackedEntry>();
    entries.set(id, entry);
    for (const drop of trackedToDrop(readTracked(entries))) entries.delete(drop);
    this.#tracked.set(mapping, entries);
  }
}
