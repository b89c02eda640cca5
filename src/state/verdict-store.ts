// The merge verdict of each managed open change request, per mapping, refreshed by each poll, for
// /status: mergeable, or the reasons it is not.
import { z } from 'zod';
import type { RedisClient } from '../redis/redis-connections.js';

export const verdictSchema = z.object({
  changeRequest: z.string(),
  number: z.number(),
  subject: z.string(),
  revision: z.string(),
  mergeable: z.boolean(),
  reasons: z.array(z.string()),
  at: z.string(),
});

export type StoredVerdict = z.infer<typeof verdictSchema>;

export class VerdictStore {
  readonly #redis: RedisClient;
  readonly #prefix: string;

  constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  keyOf(mapping: string): string {
    return `${this.#prefix}:state:verdicts:${mapping}`;
  }

  /** Replaces the verdicts of a mapping with those of its change requests open now. */
  async replace(mapping: string, verdicts: readonly StoredVerdict[]): Promise<void> {
    const multi = this.#redis.multi().del(this.keyOf(mapping));
    if (verdicts.length > 0)
      multi.hset(
        this.keyOf(mapping),
        ...verdicts.flatMap((verdict) => [verdict.changeRequest, JSON.stringify(verdict)]),
      );
    await multi.exec();
  }

  async set(mapping: string, verdict: StoredVerdict): Promise<void> {
    await this.#redis.hset(this.keyOf(mapping), verdict.changeRequest, JSON.stringify(verdict));
  }

  async list(mapping: string): Promise<StoredVerdict[]> {
    const fields = await this.#redis.hgetall(this.keyOf(mapping));
    return Object.values(fields)
      .map((text) => verdictSchema.safeParse(JSON.parse(text)))
      .flatMap((parsed) => (parsed.success ? [parsed.data] : []))
      .sort((a, b) => a.number - b.number);
  }
}
