// The event log in Redis: one capped list under the configured prefix, newest first, shared by
// every process.
import type { RedisClient } from '../redis/redis-connections.js';
import { type DocsyncEvent, EVENTS_KEPT, type EventLog, RECENT_EVENTS, readEvent } from './event-log.js';

export class RedisEventLog implements EventLog {
  readonly #redis: RedisClient;
  readonly #key: string;

  constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#key = `${prefix}:state:events`;
  }

  async record(event: DocsyncEvent): Promise<void> {
    await this.#redis
      .multi()
      .lpush(this.#key, JSON.stringify(event))
      .ltrim(this.#key, 0, EVENTS_KEPT - 1)
      .exec();
  }

  async recent(limit = RECENT_EVENTS): Promise<DocsyncEvent[]> {
    const texts = await this.#redis.lrange(this.#key, 0, limit - 1);
    return texts.flatMap((text) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return [];
      }
      const event = readEvent(value);
      return event === undefined ? [] : [event];
    });
  }
}
