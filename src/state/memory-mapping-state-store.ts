// Mapping state in memory, for `docsync once` in CI pipelines, where there is no Redis: the change
// request is found again through its subject marker instead.
import type { MappingState, MappingStatePatch, MappingStateStore, RevisionOrigin } from './mapping-state.js';

export class MemoryMappingStateStore implements MappingStateStore {
  readonly #states = new Map<string, MappingState>();
  readonly origins = new Map<string, RevisionOrigin>();

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
  }

  async revisionOrigin(space: string, revision: string): Promise<RevisionOrigin | undefined> {
    return this.origins.get(`${space}:${revision}`);
  }
}
