// The state of branches mappings in memory: for unit tests and benchmarks, copied in and out so
// that a caller never changes what is kept by holding on to it.
import {
  emptyVersionState,
  type VersionState,
  type VersionStateStore,
  versionStateSchema,
} from './version-state.js';

export class MemoryVersionStateStore implements VersionStateStore {
  readonly #states = new Map<string, string>();

  async get(mapping: string): Promise<VersionState> {
    const text = this.#states.get(mapping);
    return text === undefined ? emptyVersionState() : versionStateSchema.parse(JSON.parse(text));
  }

  async set(mapping: string, state: VersionState): Promise<void> {
    this.#states.set(mapping, JSON.stringify(state));
  }

  /** Forgets everything, as a Redis that lost its data would. */
  clear(): void {
    this.#states.clear();
  }
}
