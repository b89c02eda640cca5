// The event log in memory, for `docsync once`, tests and benchmarks: the Redis log's contract
// (newest first, capped at EVENTS_KEPT) without Redis.
import { type DocsyncEvent, EVENTS_KEPT, type EventLog, RECENT_EVENTS } from './event-log.js';

export class MemoryEventLog implements EventLog {
  /** Newest first, as the Redis list. */
  readonly #events: DocsyncEvent[] = [];

  async record(event: DocsyncEvent): Promise<void> {
    this.#events.unshift(structuredClone(event));
    this.#events.length = Math.min(this.#events.length, EVENTS_KEPT);
  }

  async recent(limit = RECENT_EVENTS): Promise<DocsyncEvent[]> {
    return this.#events.slice(0, limit).map((event) => structuredClone(event));
  }
}
