// What docsync did lately, for people: one line per job that changed something (an import, a merge,
// a link check, an upload, an export), newest first, shared by every process through Redis and
// capped, so that it never grows. The status page and /status show it; logs remain the full record.
import { z } from 'zod';
import type { RedisClient } from '../redis/redis-connections.js';

export const eventSchema = z.object({
  at: z.string(),
  queue: z.string(),
  /** The job's name: `import-content`, `merge-change-request`... */
  job: z.string(),
  /** The job's outcome word, as in its log line: `imported`, `merged`, `clean`... */
  result: z.string(),
  /** One sentence for people: "merged change request #3". */
  summary: z.string(),
  mapping: z.string().optional(),
  space: z.string().optional(),
});

export type DocsyncEvent = z.infer<typeof eventSchema>;

/** How many events Redis keeps; the status page shows the newest of them. */
export const EVENTS_KEPT = 200;
export const RECENT_EVENTS = 30;

export class EventLog {
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

  /** The newest events first; an entry that does not read back as an event is left out. */
  async recent(limit = RECENT_EVENTS): Promise<DocsyncEvent[]> {
    const texts = await this.#redis.lrange(this.#key, 0, limit - 1);
    return texts.flatMap((text) => {
      try {
        const parsed = eventSchema.safeParse(JSON.parse(text));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
  }
}
