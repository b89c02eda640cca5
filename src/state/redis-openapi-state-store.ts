// OpenAPI state in Redis: one JSON key per spec under the configured prefix, read back through zod.
import type { RedisClient } from '../redis/redis-connections.js';
import {
  type OpenApiState,
  type OpenApiStateStore,
  type OpenApiSummary,
  patchOpenApiState,
  readOpenApiState,
  readOpenApiSummary,
} from './openapi-state-store.js';

export class RedisOpenApiStateStore implements OpenApiStateStore {
  readonly #redis: RedisClient;
  readonly #prefix: string;

  constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  keyOf(org: string, slug: string): string {
    return `${this.#prefix}:state:openapi:${org}/${slug}`;
  }

  async get(org: string, slug: string): Promise<OpenApiState> {
    const text = await this.#redis.get(this.keyOf(org, slug));
    return text === null ? {} : readOpenApiState(parseJson(text));
  }

  async summary(org: string, slug: string): Promise<OpenApiSummary> {
    const text = await this.#redis.get(this.keyOf(org, slug));
    return text === null ? {} : readOpenApiSummary(parseJson(text));
  }

  async update(org: string, slug: string, patch: Partial<OpenApiState>): Promise<OpenApiState> {
    const next = patchOpenApiState(await this.get(org, slug), patch);
    await this.#redis.set(this.keyOf(org, slug), JSON.stringify(next));
    return next;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
