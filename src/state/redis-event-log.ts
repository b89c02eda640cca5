// The event log in Redis: one capped list under the configured prefix, newest first, shared by
// every process.
import { type DocsyncEvent, EVENTS_KEPT, type EventLog, RECENT_EVENTS, readEvent } from './event-log.js';
import { parseStoredJson, RedisStateStore } from './redis-state-store.js';

export class RedisEventLog extends RedisStateStore implements EventLog {
  get #key(): string {
    return this.stateKey('events');
  }

  async record(event: DocsyncEvent): Promise<void> {
    await this.redis
      .multi()
      .lpush(this.#key, JSON.stringify(event))
      .ltrim(this.#key, 0, EVENTS_KEPT - 1)
      .exec();
  }

  async recent(limit = RECENT_EVENTS): Promise<DocsyncEvent[]> {
    const texts = await this.redis.lrange(this.#key, 0, limit - 1);
    return texts.flatMap((text) => {
      const event = readEvent(parseStoredJson(text));
      return event === undefined ? [] : [event];
    });
  }
}
