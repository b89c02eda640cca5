// Mapping state in Redis: one hash per mapping under the configured prefix, each field a JSON value
// validated on the way back, so a hand-edited or older key is reported rather than trusted. Origins
// are keys of their own, and each mapping's tracked change requests one more hash, both expiring.
import { z } from 'zod';
import { DocsyncError } from '../errors/docsync-error.js';
import type { RedisClient } from '../redis/redis-connections.js';
import {
  MAX_TRACKED_CHANGE_REQUESTS,
  type MappingState,
  type MappingStatePatch,
  type MappingStateStore,
  mappingStateSchema,
  type RevisionOrigin,
  type TrackedChangeRequest,
} from './mapping-state.js';
import {
  readTracked,
  settledEntry,
  type TrackedEntry,
  trackedEntryOf,
  trackedToDrop,
} from './tracked-change-requests.js';

const revisionOriginSchema = z.object({
  kind: z.enum(['import', 'update', 'merge']),
  mapping: z.string(),
  sha: z.string().optional(),
  changeRequest: z.string().optional(),
});

const ORIGIN_TTL_SECONDS = 90 * 24 * 3600;

export class RedisMappingStateStore implements MappingStateStore {
  readonly #redis: RedisClient;
  readonly #prefix: string;

  readonly #now: () => Date;

  constructor(redis: RedisClient, prefix: string, now: () => Date = () => new Date()) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#now = now;
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
    // After the origin, never in one transaction with it: the keys may live on different cluster nodes.
    const tracked = trackedEntryOf(revision, origin, this.#now());
    if (tracked !== undefined) await this.#track(origin.mapping, tracked.id, tracked.entry);
  }

  async revisionOrigin(space: string, revision: string): Promise<RevisionOrigin | undefined> {
    const text = await this.#redis.get(`${this.#prefix}:state:revision-origin:${space}:${revision}`);
    if (text === null) return undefined;
    const parsed = revisionOriginSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  }

  trackedKeyOf(mapping: string): string {
    return `${this.#prefix}:state:tracked-change-requests:${mapping}`;
  }

  async trackedChangeRequests(mapping: string): Promise<TrackedChangeRequest[]> {
    const fields = await this.#redis.hgetall(this.trackedKeyOf(mapping));
    return readTracked(Object.entries(fields).map(([id, text]) => [id, parseJson(text)]));
  }

  async settleChangeRequest(mapping: string, id: string): Promise<void> {
    await this.#track(mapping, id, settledEntry(this.#now()));
  }

  async #track(mapping: string, id: string, entry: TrackedEntry): Promise<void> {
    const key = this.trackedKeyOf(mapping);
    const results = await this.#redis
      .multi()
      .hset(key, id, JSON.stringify(entry))
      .expire(key, ORIGIN_TTL_SECONDS)
      .hlen(key)
      .exec();
    const count = results?.at(-1)?.[1];
    // Past the cap only: one more read, then the oldest entries go.
    if (typeof count === 'number' && count > MAX_TRACKED_CHANGE_REQUESTS) {
      const drop = trackedToDrop(await this.trackedChangeRequests(mapping));
      if (drop.length > 0) await this.#redis.hdel(key, ...drop);
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
