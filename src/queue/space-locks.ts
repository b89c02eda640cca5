// A short Redis lock per space, so that jobs changing one space never run at once, across every
// process that shares the Redis. It expires by itself and is renewed while held; a holder that fails
// to renew is told through `lost`. A lock whose job run is over (its process was killed) is taken
// over at once, not after its ttl. The clock is passed
// in so that tests can move past the ttl without waiting for it.
import { randomUUID } from 'node:crypto';
import { LockLostError } from '../errors/lock-lost-error.js';
import type { Logger } from '../log/create-logger.js';
import type { RedisClient } from '../redis/redis-connections.js';

// Renew and release only what we still own: the token proves it.
const TAKE_OVER = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3]) else return false end`;
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * The BullMQ job run holding a lock: while BullMQ's own lock of that job holds this token, the run is
 * alive. Once it does not (the process was killed and BullMQ's lock expired, or another worker took
 * the stalled job over), the space lock is taken over at once instead of waiting out its ttl.
 */
export interface LockRun {
  queue: string;
  job: string;
  token: string;
}

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

  /**
   * Takes the lock of `space` when free, or when its holder's job run is over (see LockRun);
   * undefined when another live holder has it. The free case costs one round trip.
   */
  async tryAcquire(space: string, owner: string, run?: LockRun): Promise<HeldLock | undefined> {
    const key = this.keyOf(space);
    const token =
      run === undefined ? `${owner}:${randomUUID()}` : JSON.stringify({ owner, ...run, id: randomUUID() });
    const taken = await this.#redis.set(key, token, 'PX', this.#ttlMs, 'NX');
    if (taken === 'OK') return this.#hold(key, token);
    const holder = await this.#redis.get(key);
    if (holder === null || !(await this.#runIsOver(holder))) return undefined;
    const replaced = await this.#redis.eval(TAKE_OVER, 1, key, holder, token, this.#ttlMs);
    if (replaced !== 'OK') return undefined;
    this.#log.warn(
      { lock: key, holder: describeHolder(holder) },
      'space lock of a job run that ended taken over',
    );
    return this.#hold(key, token);
  }

  /** Whether `holder` names a job run whose BullMQ lock no longer holds its token. */
  async #runIsOver(holder: string): Promise<boolean> {
    const run = parseRun(holder);
    if (run === undefined) return false;
    const current = await this.#redis.get(`${this.#prefix}:${run.queue}:${run.job}:lock`);
    return current !== run.token;
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

/** The run a lock value names; undefined for a value without one (older docsync, another tool). */
function parseRun(holder: string): (LockRun & { owner: string }) | undefined {
  if (!holder.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(holder);
    if (typeof value !== 'object' || value === null) return undefined;
    const { owner, queue, job, token } = value as Record<string, unknown>;
    return typeof queue === 'string' && typeof job === 'string' && typeof token === 'string'
      ? { owner: typeof owner === 'string' ? owner : 'unknown', queue, job, token }
      : undefined;
  } catch {
    return undefined;
  }
}

/** A holder for a log line: its process and job, never the tokens. */
function describeHolder(holder: string): string {
  const run = parseRun(holder);
  return run === undefined ? 'unknown' : `${run.owner} ${run.queue}/${run.job}`;
}
