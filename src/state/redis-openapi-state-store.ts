// OpenAPI state in Redis: one JSON key per spec under the configured prefix, read back through zod.
// The last upload's contract (hundreds of kB for a large API) has a key of its own, so that /status,
// which reads the summary of every spec, never carries it.
import {
  type OpenApiState,
  type OpenApiStateStore,
  type OpenApiSummary,
  patchOpenApiState,
  readOpenApiState,
  readOpenApiSummary,
} from './openapi-state-store.js';
import { parseStoredJson, RedisStateStore } from './redis-state-store.js';

export class RedisOpenApiStateStore extends RedisStateStore implements OpenApiStateStore {
  keyOf(org: string, slug: string): string {
    return this.stateKey('openapi', `${org}/${slug}`);
  }

  contractKeyOf(org: string, slug: string): string {
    return this.stateKey('openapi-contract', `${org}/${slug}`);
  }

  async get(org: string, slug: string): Promise<OpenApiState> {
    const [text, contract] = await Promise.all([
      this.redis.get(this.keyOf(org, slug)),
      this.redis.get(this.contractKeyOf(org, slug)),
    ]);
    if (text === null) return {};
    const state = readOpenApiState(parseStoredJson(text));
    return contract === null || state.uploaded === undefined
      ? state
      : { ...state, uploaded: { ...state.uploaded, contract } };
  }

  async summary(org: string, slug: string): Promise<OpenApiSummary> {
    const text = await this.redis.get(this.keyOf(org, slug));
    return text === null ? {} : readOpenApiSummary(parseStoredJson(text));
  }

  async update(org: string, slug: string, patch: Partial<OpenApiState>): Promise<OpenApiState> {
    const next = patchOpenApiState(await this.get(org, slug), patch);
    if (next.uploaded === undefined) {
      await this.redis.set(this.keyOf(org, slug), JSON.stringify(next));
      return next;
    }
    const { contract, ...uploaded } = next.uploaded;
    if (contract === undefined) await this.redis.del(this.contractKeyOf(org, slug));
    else await this.redis.set(this.contractKeyOf(org, slug), contract);
    await this.redis.set(this.keyOf(org, slug), JSON.stringify({ ...next, uploaded }));
    return next;
  }
}
