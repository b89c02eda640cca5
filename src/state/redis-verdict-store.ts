// Verdicts in Redis: one hash per mapping, a field per change request, read back through zod.
import { parseStoredJson, RedisStateStore } from './redis-state-store.js';
import { byNumber, type StoredVerdict, type VerdictStore, verdictSchema } from './verdict-store.js';

export class RedisVerdictStore extends RedisStateStore implements VerdictStore {
  keyOf(mapping: string): string {
    return this.stateKey('verdicts', mapping);
  }

  async replace(mapping: string, verdicts: readonly StoredVerdict[]): Promise<void> {
    const multi = this.redis.multi().del(this.keyOf(mapping));
    if (verdicts.length > 0)
      multi.hset(
        this.keyOf(mapping),
        ...verdicts.flatMap((verdict) => [verdict.changeRequest, JSON.stringify(verdict)]),
      );
    await multi.exec();
  }

  async set(mapping: string, verdict: StoredVerdict): Promise<void> {
    await this.redis.hset(this.keyOf(mapping), verdict.changeRequest, JSON.stringify(verdict));
  }

  async list(mapping: string): Promise<StoredVerdict[]> {
    const fields = await this.redis.hgetall(this.keyOf(mapping));
    return Object.values(fields)
      .map((text) => verdictSchema.safeParse(parseStoredJson(text)))
      .flatMap((parsed) => (parsed.success ? [parsed.data] : []))
      .sort(byNumber);
  }
}
