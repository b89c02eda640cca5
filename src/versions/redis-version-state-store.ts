// The state of branches mappings in Redis: one JSON string per mapping under
// `<prefix>:state:versions:<mapping>`, written whole after each reconcile and read back through zod.
import { z } from 'zod';
import { DocsyncError } from '../errors/docsync-error.js';
import type { RedisClient } from '../redis/redis-connections.js';
import { parseStoredJson, RedisStateStore } from '../state/redis-state-store.js';
import {
  emptyVersionState,
  type VersionState,
  type VersionStateStore,
  versionStateSchema,
} from './version-state.js';

export class RedisVersionStateStore extends RedisStateStore implements VersionStateStore {
  constructor(redis: RedisClient, prefix: string) {
    super(redis, prefix);
  }

  keyOf(mapping: string): string {
    return this.stateKey('versions', mapping);
  }

  async get(mapping: string): Promise<VersionState> {
    const text = await this.redis.get(this.keyOf(mapping));
    if (text === null) return emptyVersionState();
    const parsed = versionStateSchema.safeParse(parseStoredJson(text));
    if (!parsed.success) {
      throw new DocsyncError(
        'STATE_INVALID',
        `the versions state of mapping ${mapping} in Redis (${this.keyOf(mapping)}) is not valid: ${z.prettifyError(parsed.error)}; delete the key and docsync finds its spaces again by their marker`,
      );
    }
    return parsed.data;
  }

  async set(mapping: string, state: VersionState): Promise<void> {
    await this.redis.set(this.keyOf(mapping), JSON.stringify(state));
  }
}
