// Mapping state in Redis: one hash per mapping under the configured prefix, each field a JSON value
// validated on the way back, so a hand-edited or older key is reported rather than trusted.
import { z } from 'zod';
import { DocsyncError } from '../errors/docsync-error.js';
import type { RedisClient } from '../redis/redis-connections.js';
import {
  type MappingState,
  type MappingStatePatch,
  type MappingStateStore,
  mappingStateSchema,
  type RevisionOrigin,
} from './mapping-state.js';

const revisionOriginSchema = z.object({
  kind: z.enum(['import', 'update', 'merge']),
  mapping: z.string(),
  sha: z.string().optional(),
});

const ORIGIN_TTL_SECONDS = 90 * 24 * 3600;

export class RedisMappingStateStore implements MappingStateStore {
  readonly #redis: RedisClient;
  readonly #prefix: string;

  constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  keyOf(mapping: string): string {
    return `${this.#prefix}:state:mapping:${mapping}`;
  }

  async get(mapping: string): Promise<MappingState> {
    const fields = await this.#redis.hgetall(this.keyOf(mapping));
    const raw: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(fields)) {
      try {
        raw[key] = JSON.parse(value);
      } catch {
        raw[key] = value;
      }
    }
    const parsed = mappingStateSchema.safeParse(raw);
    if (!parsed.success) {
      throw new DocsyncError(
        'STATE_INVALID',
        `the state of mapping ${mapping} in Redis (${this.keyOf(mapping)}) is not valid: ${z.prettifyError(parsed.error)}`,
      );
    }
    return parsed.data;
  }

  async update(mapping: string, patch: MappingStatePatch): Promise<void> {
    const set: string[] = [];
    const remove: string[] = [];
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      if (value === null) remove.push(key);
      else set.push(key, JSON.stringify(value));
    }
    const multi = this.#redis.multi();
    if (set.length > 0) multi.hset(this.keyOf(mapping), ...set);
    if (remove.length > 0) multi.hdel(this.keyOf(mapping), ...remove);
    await multi.exec();
  }

  async recordRevisionOrigin(space: string, revision: string, origin: RevisionOrigin): Promise<void> {
    await this.#redis.set(
      `${this.#prefix}:state:revision-origin:${space}:${revision}`,
      JSON.stringify(origin),
      'EX',
      ORIGIN_TTL_SECONDS,
    );
  }

  async revisionOrigin(space: string, revision: string): Promise<RevisionOrigin | undefined> {
    const text = await this.#redis.get(`${this.#prefix}:state:revision-origin:${space}:${revision}`);
    if (text === null) return undefined;
    const parsed = revisionOriginSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  }
}
