// Link checks in Redis: one key per target under the configured prefix, expiring after a month
// without a check, read back through zod.
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
    const text = await this.redis.get(this.keyOf(space, changeRequest));
    if (text === null) return undefined;
    const parsed = linkCheckSchema.safeParse(parseStoredJson(text));
    // An unreadable record is treated as no previous check: the next one starts afresh.
    return parsed.success ? parsed.data : undefined;
  }

  async summary(space: string, changeRequest: string | undefined): Promise<LinkCheckSummary | undefined> {
    const text = await this.redis.get(this.keyOf(space, changeRequest));
    return text === null ? undefined : summaryOfLinkCheck(parseStoredJson(text));
  }

  async set(space: string, changeRequest: string | undefined, check: LinkCheck): Promise<void> {
    await this.redis.set(this.keyOf(space, changeRequest), JSON.stringify(check), 'EX', KEEP_SECONDS);
  }
}
