// A short Redis lock per space, so that jobs changing one space never run at once, across every
// process that shares the Redis. It expires by itself and is renewed while held; a holder that fails
// to renew is told through `lost`. A lock whose job run is over (its process was killed) is taken
// over at once, not after its ttl. The clock is passed in so that tests can move past the ttl
// without waiting for it.
//
// Cost: taking a lock is one round trip (one script: take a free lock, or take over the lock of a
// run that is over, or say who holds it); renewing is one, off the job's path, and so is releasing,
// shared by the releases of one turn of the event loop (one script call for all of them).
// The scripts are loaded once per connection and called by hash (ioredis `defineCommand`: EVALSHA,
// and EVAL by itself when the server does not know the hash).
import { randomUUID } from 'node:crypto';
import { LockLostError } from '../errors/lock-lost-error.js';
import type { Logger } from '../log/create-logger.js';
import type { RedisClient } from '../redis/redis-connections.js';

/**
 * Takes KEYS[1] for ARGV[1] (ttl ARGV[2]) when free: 1. When it is held by a value naming a BullMQ
 * job run (see LockRun) whose job lock (ARGV[3]..queue..':'..job..':lock') no longer holds the
 * run's token, takes it over: {2, previous holder}. Otherwise 0. The job lock is read by a key the
 * script builds: on a cluster, the prefix must carry a hash tag (as BullMQ's own keys must).
 */
const ACQUIRE = `
local holder = redis.call('get', KEYS[1])
if not holder then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if string.sub(holder, 1, 1) ~= '{' then return 0 end
local ok, run = pcall(cjson.decode, holder)
if not ok or type(run) ~= 'table' or type(run.queue) ~= 'string' or type(run.job) ~= 'string'
  or type(run.token) ~= 'string' then
  return 0
end
if redis.call('get', ARGV[3] .. run.queue .. ':' .. run.job .. ':lock') == run.token then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {2, holder}
`;
// Renew and release only what we still own: the token proves it.
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
// Releases of jobs that ended in the same turn of the event loop go in one call: KEYS[i] with ARGV[i].
const RELEASE = `for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[i] then redis.call('del', key) end
end
return #KEYS`;

/** The scripts as commands of a client: defined once per client, called by their hash. */
interface LockCommands {
  docsyncSpaceLockAcquire(key: string, token: string, ttlMs: number, jobPrefix: string): Promise<unknown>;
  docsyncSpaceLockRenew(key: string, token: string, ttlMs: number): Promise<unknown>;
  /** `count` keys, then their tokens in the same order. */
  docsyncSpaceLockRelease(count: number, ...keysThenTokens: string[]): Promise<unknown>;
}

function lockCommands(redis: RedisClient): LockCommands {
  const client = redis as RedisClient & Partial<LockCommands>;
  if (client.docsyncSpaceLockAcquire === undefined) {
    redis.defineCommand('docsyncSpaceLockAcquire', { numberOfKeys: 1, lua: ACQUIRE });
    redis.defineCommand('docsyncSpaceLockRenew', { numberOfKeys: 1, lua: RENEW });
    redis.defineCommand('docsyncSpaceLockRelease', { lua: RELEASE });
  }
  return client as RedisClient & LockCommands;
}

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

/**
 * `write` (the default): the one lock of the key, held by the jobs that change what it names.
 * `read`: a lock of its own beside it, held by jobs that only read what writers change. Readers of a
 * key run one at a time, and never hold a writer back nor wait for one.
 */
export type LockMode = 'write' | 'read';

export interface HeldLock {
  key: string;
  /** Aborted with a LockLostError when the lock could not be renewed. */
  lost: AbortSignal;
  /**
   * Gives the lock up if this holder still owns it (never one taken over since). Never rejects: a
   * failure is logged, and the lock expires by itself within its ttl. Callers need not await it.
   */
  release(): Promise<void>;
}

export class SpaceLocks {
  readonly #redis: RedisClient;
  readonly #commands: LockCommands;
  readonly #prefix: string;
  readonly #ttlMs: number;
  readonly #log: Logger;
  readonly #now: () => number;
  /** Releases asked for in this turn of the event loop, sent together at its end. */
  #releases: PendingRelease[] = [];

  constructor(
    redis: RedisClient,
    options: { prefix: string; ttlMs: number; log: Logger; now?: () => number },
  ) {
    this.#redis = redis;
    this.#commands = lockCommands(redis);
    this.#prefix = options.prefix;
    this.#ttlMs = options.ttlMs;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
  }

  keyOf(space: string, mode: LockMode = 'write'): string {
    return mode === 'write' ? `${this.#prefix}:lock:space:${space}` : `${this.#prefix}:lock:read:${space}`;
  }

  /**
   * Takes the lock of `space` when free, or when its holder's job run is over (see LockRun);
   * undefined when another live holder has it. One round trip in every case.
   */
  async tryAcquire(
    space: string,
    owner: string,
    run?: LockRun,
    mode: LockMode = 'write',
  ): Promise<HeldLock | undefined> {
    const key = this.keyOf(space, mode);
    const token =
      run === undefined ? `${owner}:${randomUUID()}` : JSON.stringify({ owner, ...run, id: randomUUID() });
    const taken = await this.#commands.docsyncSpaceLockAcquire(key, token, this.#ttlMs, `${this.#prefix}:`);
    if (taken === 1) return this.#hold(key, token);
    if (!Array.isArray(taken)) return undefined;
    this.#log.warn(
      { lock: key, holder: describeHolder(String(taken[1])) },
      'space lock of a job run that ended taken over',
    );
    return this.#hold(key, token);
  }

  /** Who holds the lock of `space` now, if anyone. */
  async holder(space: string, mode: LockMode = 'write'): Promise<string | undefined> {
    return (await this.#redis.get(this.keyOf(space, mode))) ?? undefined;
  }

  /** Sends the release of `key` with the others of this turn of the event loop: one call for all. */
  #releaseSoon(key: string, token: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const settle = (error?: unknown) => (error === undefined ? resolve() : reject(error));
      this.#releases.push({ key, token, settle });
      if (this.#releases.length === 1) setImmediate(() => this.#flushReleases());
    });
  }

  #flushReleases(): void {
    const batch = this.#releases;
    this.#releases = [];
    const keys = batch.map((release) => release.key);
    const tokens = batch.map((release) => release.token);
    this.#commands.docsyncSpaceLockRelease(batch.length, ...keys, ...tokens).then(
      () => {
        for (const release of batch) release.settle();
      },
      (error: unknown) => {
        for (const release of batch) release.settle(error ?? new Error('space lock release failed'));
      },
    );
  }

  #hold(key: string, token: string): HeldLock {
    const lost = new AbortController();
    let released: Promise<void> | undefined;
    let lastRenewedAt = this.#now();
    const interval = Math.max(100, Math.floor(this.#ttlMs / 3));
    const renew = async () => {
      try {
        const renewed = await withTimeout(
          this.#commands.docsyncSpaceLockRenew(key, token, this.#ttlMs),
          interval,
        );
        if (released !== undefined) return;
        // 0: the key expired or another holder has it now.
        if (renewed !== 1) lost.abort(new LockLostError(key));
        else lastRenewedAt = this.#now();
      } catch (error) {
        if (released !== undefined) return;
        // A slow or failed renewal is not a loss yet: the lock still holds until its ttl runs out.
        if (this.#now() - lastRenewedAt >= this.#ttlMs) lost.abort(new LockLostError(key, { cause: error }));
        else this.#log.debug({ lock: key, err: error }, 'space lock renewal failed, the lock still holds');
      }
    };
    const timer = setInterval(() => void renew(), interval);
    timer.unref();
    lost.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
    const release = async () => {
      try {
        await withTimeout(this.#releaseSoon(key, token), this.#ttlMs);
      } catch (error) {
        // It expires by itself within the ttl.
        this.#log.warn({ lock: key, err: error }, 'space lock release failed');
      }
    };
    return {
      key,
      lost: lost.signal,
      release: () => {
        if (released === undefined) {
          clearInterval(timer);
          released = release();
        }
        return released;
      },
    };
  }
}

interface PendingRelease {
  key: string;
  token: string;
  settle: (error?: unknown) => void;
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
