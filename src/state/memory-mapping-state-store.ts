// Mapping state in memory, for `docsync once` in CI pipelines, where there is no Redis: the change
// request is found again through its subject marker instead.
import { withFailure, withSuccess } from './failure-runs.js';
import type {
  Failure,
  MappingState,
  MappingStatePatch,
  MappingStateStore,
  RevisionOrigin,
  TrackedChangeRequest,
} from './mapping-state.js';
import { TrackedChangeRequests, type TrackedEntry } from './tracked-change-requests.js';

export class MemoryMappingStateStore implements MappingStateStore {
  readonly #states = new Map<string, MappingState>();
  readonly origins = new Map<string, RevisionOrigin>();
  readonly #tracked: TrackedChangeRequests;

  constructor(now: () => Date = () => new Date()) {
    const entries = new Map<string, Map<string, TrackedEntry>>();
    this.#tracked = new TrackedChangeRequests(
      {
        entries: async (mapping) => entries.get(mapping) ?? [],
        put: async (mapping, id, entry) => {
          const held = entries.get(mapping) ?? new Map<string, TrackedEntry>();
          entries.set(mapping, held.set(id, entry));
          return held.size;
        },
        remove: async (mapping, ids) => {
          for (const id of ids) entries.get(mapping)?.delete(id);
        },
      },
      now,
    );
  }

  async get(mapping: string): Promise<MappingState> {
    return structuredClone(this.#states.get(mapping) ?? {});
  }

  async update(mapping: string, patch: MappingStatePatch): Promise<void> {
    this.#patch(mapping, patch);
  }

  // Read and written with no await between, as the Redis store's script: failures at once all count.
  async recordFailure(mapping: string, job: string, failure: Failure): Promise<void> {
    const failures = withFailure(this.#states.get(mapping)?.failures, job, failure);
    this.#patch(mapping, { failures, lastError: failure });
  }

  async recordSuccess(mapping: string, job: string): Promise<void> {
    const failures = this.#states.get(mapping)?.failures;
    if (failures?.[job] === undefined) return;
    const rest = withSuccess(failures, job);
    this.#patch(mapping, rest === undefined ? { failures: null, lastError: null } : { failures: rest });
  }

  #patch(mapping: string, patch: MappingStatePatch): void {
    const next: Record<string, unknown> = { ...(this.#states.get(mapping) ?? {}) };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete next[key];
      else if (value !== undefined) next[key] = structuredClone(value);
    }
    this.#states.set(mapping, next as MappingState);
  }

  async recordRevisionOrigin(space: string, revision: string, origin: RevisionOrigin): Promise<void> {
    this.origins.set(`${space}:${revision}`, origin);
    await this.#tracked.trackOrigin(revision, origin);
  }

  async revisionOrigin(space: string, revision: string): Promise<RevisionOrigin | undefined> {
    return this.origins.get(`${space}:${revision}`);
  }

  async trackedChangeRequests(mapping: string): Promise<TrackedChangeRequest[]> {
    return this.#tracked.list(mapping);
  }

  async trackChangeRequest(mapping: string, id: string, sha: string | undefined): Promise<void> {
    await this.#tracked.track(mapping, id, sha);
  }

  async settleChangeRequest(mapping: string, id: string): Promise<void> {
    await this.#tracked.settle(mapping, id);
  }
}
