// The push webhooks of repositories in Redis: one hash per repository (`hookAt`, `lookAt`), named
// by a hash of its address, which may hold a token. Shared by every process on the Redis, so that a
// webhook received by one spares the polls of all.
import { createHash } from 'node:crypto';
import { RedisStateStore } from './redis-state-store.js';
import type { RepositoryHookStore, RepositoryHooks } from './repository-hooks.js';

/** Kept this long after the last write: a repository no longer configured leaves nothing behind. */
const KEEP_SECONDS = 30 * 24 * 3600;

/** A stored time, or undefined for anything else a person or an older docsync left. */
function timeOf(text: string | undefined): number | undefined {
  const time = Number(text);
  return text !== undefined && Number.isSafeInteger(time) && time > 0 ? time : undefined;
}

export class RedisRepositoryHookStore extends RedisStateStore implements RepositoryHookStore {
  keyOf(repo: string): string {
    return this.stateKey('repository-hooks', createHash('sha256').update(repo).digest('hex').slice(0, 16));
  }

  async get(repo: string): Promise<RepositoryHooks> {
    const [hookAt, lookAt] = await this.redis.hmget(this.keyOf(repo), 'hookAt', 'lookAt');
    const hooks: RepositoryHooks = {};
    const hook = timeOf(hookAt ?? undefined);
    const look = timeOf(lookAt ?? undefined);
    if (hook !== undefined) hooks.hookAt = hook;
    if (look !== undefined) hooks.lookAt = look;
    return hooks;
  }

  async hooked(repo: string, at: number): Promise<void> {
    const key = this.keyOf(repo);
    await this.redis.multi().hset(key, 'hookAt', at, 'lookAt', at).expire(key, KEEP_SECONDS).exec();
  }

  async looked(repo: string, at: number): Promise<void> {
    // Only while hooked: a look after the hook was forgotten writes nothing.
    const key = this.keyOf(repo);
    if ((await this.redis.hexists(key, 'hookAt')) === 1) await this.redis.hset(key, 'lookAt', at);
  }

  async forget(repo: string): Promise<void> {
    await this.redis.del(this.keyOf(repo));
  }
}
