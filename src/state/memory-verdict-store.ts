// Verdicts in memory, for `docsync once`, tests and benchmarks: the Redis store's contract without
// Redis, records copied in and out as a round trip through Redis would.
import { byNumber, type StoredVerdict, type VerdictStore } from './verdict-store.js';

export class MemoryVerdictStore implements VerdictStore {
  readonly #verdicts = new Map<string, Map<string, StoredVerdict>>();

  async replace(mapping: string, verdicts: readonly StoredVerdict[]): Promise<void> {
    this.#verdicts.set(
      mapping,
      new Map(verdicts.map((verdict) => [verdict.changeRequest, structuredClone(verdict)])),
    );
  }

  async set(mapping: string, verdict: StoredVerdict): Promise<void> {
    const verdicts = this.#verdicts.get(mapping) ?? new Map<string, StoredVerdict>();
    verdicts.set(verdict.changeRequest, structuredClone(verdict));
    this.#verdicts.set(mapping, verdicts);
  }

  async list(mapping: string): Promise<StoredVerdict[]> {
    return [...(this.#verdicts.get(mapping)?.values() ?? [])]
      .map((verdict) => structuredClone(verdict))
      .sort(byNumber);
  }
}
