// Mapping state in Redis: one hash per mapping under the configured prefix, each field a JSON value
// validated on the way back, so a hand-edited or older key is reported rather than trusted. Origins
// are keys of their own, and each mapping's tracked change requests one more hash, both expiring.
import { z } from 'zod';
import { DocsyncError } from '../errors/docsync-error.js';
import type { RedisClient } from '../redis/redis-connections.js';
import { type ScriptCommand, scriptCommand } from '../redis/script-command.js';
import { FAILURE_RUN_SCRIPT } from './failure-runs.js';
import {
  type Failure,
  type MappingState,
  type MappingStatePatch,
  type MappingStateStore,
  mappingStateSchema,
  type RevisionOrigin,
  type TrackedChangeRequest,
} from './mapping-state.js';
import { parseStoredJson, RedisStateStore } from './redis-state-store.js';
import { TrackedChangeRequests } from './tracked-change-requests.js';

const revisionOriginSchema = z.object({
  kind: z.enum(['import', 'update', 'merge']),
  mapping: z.string(),
  sha: z.string().optional(),
  changeRequest: z.string().optional(),
});

const ORIGIN_TTL_SECONDS = 90 * 24 * 3600;

export class RedisMappingStateStore extends RedisStateStore implements MappingStateStore {
  readonly #tracked: TrackedChangeRequests;
  /** FAILURE_RUN_SCRIPT, called by its hash: every job of a mapping runs it at its end. */
  readonly #failureRun: ScriptCommand;

  constructor(redis: RedisClient, prefix: string, now: () => Date = () => new Date()) {
    super(redis, prefix);
    this.#failureRun = scriptCommand(redis, 'docsyncFailureRun', FAILURE_RUN_SCRIPT);
    this.#tracked = new TrackedChangeRequests(
      {
        entries: async (mapping) =>
          Object.entries(await this.redis.hgetall(this.trackedKeyOf(mapping))).map(
            ([id, text]): [string, unknown] => [id, parseStoredJson(text)],
          ),
        put: async (mapping, id, entry) => {
          const key = this.trackedKeyOf(mapping);
          const results = await this.redis
            .multi()
            .hset(key, id, JSON.stringify(entry))
            .expire(key, ORIGIN_TTL_SECONDS)
            .hlen(key)
            .exec();
          const count = results?.at(-1)?.[1];
          return typeof count === 'number' ? count : 0;
        },
        remove: async (mapping, ids) => {
          await this.redis.hdel(this.trackedKeyOf(mapping), ...ids);
        },
      },
      now,
    );
  }

  keyOf(mapping: string): string {
    return this.stateKey('mapping', mapping);
  }

  trackedKeyOf(mapping: string): string {
    return this.stateKey('tracked-change-requests', mapping);
  }

  async get(mapping: string): Promise<MappingState> {
    const fields = await this.redis.hgetall(this.keyOf(mapping));
    const raw: Record<string, unknown> = {};
    // A field that is not JSON is kept as its text: the schema then says which field is wrong.
    for (const [key, value] of Object.entries(fields)) raw[key] = parseStoredJson(value) ?? value;
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
    const multi = this.redis.multi();
    if (set.length > 0) multi.hset(this.keyOf(mapping), ...set);
    if (remove.length > 0) multi.hdel(this.keyOf(mapping), ...remove);
    await multi.exec();
  }

  async recordFailure(mapping: string, job: string, failure: Failure): Promise<void> {
    await this.#failureRun(1, this.keyOf(mapping), job, JSON.stringify(failure));
  }

  async recordSuccess(mapping: string, job: string): Promise<void> {
    await this.#failureRun(1, this.keyOf(mapping), job, '');
  }

  async recordRevisionOrigin(space: string, revision: string, origin: RevisionOrigin): Promise<void> {
    await this.redis.set(this.#originKey(space, revision), JSON.stringify(origin), 'EX', ORIGIN_TTL_SECONDS);
    // After the origin, never in one transaction with it: the keys may live on different cluster nodes.
    await this.#tracked.trackOrigin(revision, origin);
  }

  async revisionOrigin(space: string, revision: string): Promise<RevisionOrigin | undefined> {
    const text = await this.redis.get(this.#originKey(space, revision));
    if (text === null) return undefined;
    const parsed = revisionOriginSchema.safeParse(parseStoredJson(text));
    return parsed.success ? parsed.data : undefined;
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

  #originKey(space: string, revision: string): string {
    return this.stateKey('revision-origin', space, revision);
  }
}
