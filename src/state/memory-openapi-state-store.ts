// OpenAPI state in memory, for `docsync once`, tests and benchmarks: the Redis store's contract
// without Redis, records copied in and out as a round trip through Redis would.
import {
  type OpenApiState,
  type OpenApiStateStore,
  type OpenApiSummary,
  patchOpenApiState,
  readOpenApiSummary,
} from './openapi-state-store.js';

export class MemoryOpenApiStateStore implements OpenApiStateStore {
  readonly #states = new Map<string, OpenApiState>();

  async get(org: string, slug: string): Promise<OpenApiState> {
    return structuredClone(this.#states.get(keyOf(org, slug)) ?? {});
  }

  async summary(org: string, slug: string): Promise<OpenApiSummary> {
    return readOpenApiSummary(structuredClone(this.#states.get(keyOf(org, slug)) ?? {}));
  }

  async update(org: string, slug: string, patch: Partial<OpenApiState>): Promise<OpenApiState> {
    const next = patchOpenApiState(await this.get(org, slug), structuredClone(patch));
    this.#states.set(keyOf(org, slug), next);
    return structuredClone(next);
  }
}

function keyOf(org: string, slug: string): string {
  return `${org}/${slug}`;
}
