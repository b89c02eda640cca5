// The push webhooks of repositories in Redis: one hash per repository (`hookAt`, and `lookAt:<every>`
// per poll interval), named by a hash of its address, which may hold a token. Shared by every
// process on the Redis, so that a webhook received by one spares the polls of all.
import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis/redis-connections.js';
import { type ScriptCommand, scriptCommand } from '../redis/script-command.js';
import { RedisStateStore } from './redis-state-store.js';
import type { RepositoryHookStore, RepositoryHooks } from './repository-hooks.js';

/** Kept this long after the last webhook: a repository no longer configured leaves nothing behind. */
const KEEP_SECONDS = 30 * 24 * 3600;

/** KEYS[1]: the hash. ARGV: the field, the time. Written only while the hook is there. */
const LOOKED_SCRIPT = `
if redis.call('HEXISTS', KEYS[1], 'hookAt') == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`;

/** A stored time, or undefined for anything else a person or an older docsync left. */
function timeOf(text: string | null): number | undefined {
  const time = Number(text);
  return text !== null && Number.isSafeInteger(time) && time > 0 ? time : undefined;
}

export class RedisRepositoryHookStore extends RedisStateStore implements RepositoryHookStore {
  readonly #looked: ScriptCommand;

  constructor(redis: RedisClient, prefix: string) {
    super(redis, prefix);
    this.#looked = scriptCommand(redis, 'docsyncRepositoryLooked', LOOKED_SCRIPT);
  }

  keyOf(repo: string): string {
    return this.stateKey('repository-hooks', createHash('sha256').update(repo).digest('hex').slice(0, 16));
  }

  async get(repo: string, every: number): Promise<RepositoryHooks> {
    const [hookAt, lookAt] = await this.redis.hmget(this.keyOf(repo), 'hookAt', `lookAt:${every}`);
    const hook = timeOf(hookAt ?? null);
    const look = timeOf(lookAt ?? null);
    return {
      ...(hook === undefined ? {} : { hookAt: hook }),
      ...(look === undefined ? {} : { lookAt: look }),
    };
  }

  async hooked(repo: string, at: number): Promise<void> {
    const key = this.keyOf(repo);
    await this.redis.multi().hset(key, 'hookAt', at).expire(key, KEEP_SECONDS).exec();
  }

  async looked(repo: string, every: number, at: number): Promise<void> {
    await this.#looked(1, this.keyOf(repo), `lookAt:${every}`, String(at));
  }

  async forget(repo: string): Promise<void> {
    await this.redis.del(this.keyOf(repo));
  }
}
