// Link checks in Redis: one key per target under the configured prefix, expiring after a month
// without a check, read back through zod. Many targets read in one MGET (a cluster, where the keys
// may sit in different slots: their GETs sent together, one round trip per node).
import { Cluster } from 'ioredis';
import {
  type LinkCheck,
  type LinkCheckStore,
  type LinkCheckSummary,
  linkCheckSchema,
  summaryOfLinkCheck,
} from './link-check-store.js';
import { parseStoredJson, RedisStateStore } from './redis-state-store.js';

const KEEP_SECONDS = 30 * 24 * 3600;

export class RedisLinkCheckStore extends RedisStateStore implements LinkCheckStore {
  keyOf(space: string, changeRequest: string | undefined): string {
    return this.stateKey('links', space, changeRequest ?? 'main');
  }

  async get(space: string, changeRequest: string | undefined): Promise<LinkCheck | undefined> {
    return checkOf(await this.redis.get(this.keyOf(space, changeRequest)));
  }

  async getMany(
    space: string,
    changeRequests: readonly (string | undefined)[],
  ): Promise<(LinkCheck | undefined)[]> {
    if (changeRequests.length === 0) return [];
    const keys = changeRequests.map((changeRequest) => this.keyOf(space, changeRequest));
    const texts =
      this.redis instanceof Cluster
        ? await Promise.all(keys.map((key) => this.redis.get(key)))
        : await this.redis.mget(keys);
    return texts.map(checkOf);
  }

  async summary(space: string, changeRequest: string | undefined): Promise<LinkCheckSummary | undefined> {
    const text = await this.redis.get(this.keyOf(space, changeRequest));
    return text === null ? undefined : summaryOfLinkCheck(parseStoredJson(text));
  }

  async set(space: string, changeRequest: string | undefined, check: LinkCheck): Promise<void> {
    await this.redis.set(this.keyOf(space, changeRequest), JSON.stringify(check), 'EX', KEEP_SECONDS);
  }
}

function checkOf(text: string | null | undefined): LinkCheck | undefined {
  if (text === null || text === undefined) return undefined;
  const parsed = linkCheckSchema.safeParse(parseStoredJson(text));
  // An unreadable record is treated as no previous check: the next one starts afresh.
  return parsed.success ? parsed.data : undefined;
}
