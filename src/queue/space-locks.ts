// A short Redis lock per space, so that jobs changing one space never run at once, across every
// process that shares the Redis. It expires by itself (a crashed holder never blocks for long) and
// is renewed while held; a holder that fails to renew is told through `lost`. The clock is passed
// in so that tests can move past the ttl without waiting for it.
import { randomUUID } from 'node:crypto';
import { LockLostError } from '../errors/lock-lost-error.js';
import type { Logger } from '../log/create-logger.js';
import type { RedisClient } from '../redis/redis-connections.js';

// Renew and release only what we still own: the token proves it.
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface HeldLock {
  key: string;
  /** Aborted with a LockLostError when the lock could not be renewed. */
  lost: AbortSignal;
  release(): Promise<void>;
}

export class SpaceLocks {
  readonly #redis: RedisClient;
  readonly #prefix: string;
  readonly #ttlMs: number;
  readonly #log: Logger;
  readonly #now: () => number;

  constructor(
    redis: RedisClient,
    options: { prefix: string; ttlMs: number; log: Logger; now?: () => number },
  ) {
    this.#redis = redis;
    this.#prefix = options.prefix;
    this.#ttlMs = options.ttlMs;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
  }

  keyOf(space: string): string {
    return `${this.#prefix}:lock:space:${space}`;
  }

  /** Takes the lock of `space` when free; undefined when another holder has it. */
  async tryAcquire(space: string, owner: string): Promise<HeldLock | undefined> {
    const key = this.keyOf(space);
    const token = `${owner}:${randomUUID()}`;
    const taken = await this.#redis.set(key, token, 'PX', this.#ttlMs, 'NX');
    if (taken !== 'OK') return undefined;
    return this.#hold(key, token);
  }

  /** Who holds the lock of `space` now, if anyone. */
  async holder(space: string): Promise<string | undefined> {
    return (await this.#redis.get(this.keyOf(space))) ?? undefined;
  }

  #hold(key: string, token: string): HeldLock {
    const lost = new AbortController();
    let released = false;
    let lastRenewedAt = this.#now();
    const interval = Math.max(100, Math.floor(this.#ttlMs / 3));
    const renew = async () => {
      try {
        const renewed = await withTimeout(this.#redis.eval(RENEW, 1, key, token, this.#ttlMs), interval);
        if (released) return;
        // 0: the key expired or another holder has it now.
        if (renewed !== 1) lost.abort(new LockLostError(key));
        else lastRenewedAt = this.#now();
      } catch (error) {
        if (released) return;
        // A slow or failed renewal is not a loss yet: the lock still holds until its ttl runs out.
        if (this.#now() - lastRenewedAt >= this.#ttlMs) lost.abort(new LockLostError(key, { cause: error }));
        else this.#log.debug({ lock: key, err: error }, 'space lock renewal failed, the lock still holds');
      }
    };
    const timer = setInterval(() => void renew(), interval);
    timer.unref();
    lost.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
    return {
      key,
      lost: lost.signal,
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(timer);
        try {
          await withTimeout(this.#redis.eval(RELEASE, 1, key, token), this.#ttlMs);
        } catch (error) {
          // It expires by itself within the ttl.
          this.#log.warn({ lock: key, err: error }, 'space lock release failed');
        }
      },
    };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from Redis within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
