// OpenAPI state in Redis: one JSON key per spec under the configured prefix, read back through zod.
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

  async get(org: string, slug: string): Promise<OpenApiState> {
    const text = await this.redis.get(this.keyOf(org, slug));
    return text === null ? {} : readOpenApiState(parseStoredJson(text));
  }

  async summary(org: string, slug: string): Promise<OpenApiSummary> {
    const text = await this.redis.get(this.keyOf(org, slug));
    return text === null ? {} : readOpenApiSummary(parseStoredJson(text));
  }

  async update(org: string, slug: string, patch: Partial<OpenApiState>): Promise<OpenApiState> {
    const next = patchOpenApiState(await this.get(org, slug), patch);
    await this.redis.set(this.keyOf(org, slug), JSON.stringify(next));
    return next;
  }
}
