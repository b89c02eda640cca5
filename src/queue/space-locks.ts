// A short Redis lock per space, so that jobs changing one space never run at once, across every
// process that shares the Redis. It expires by itself and is renewed while held; a holder that fails
// to renew is told through `lost`. A lock whose job run is over (its process was killed) is taken
// over at once, not after its ttl. The clock is passed in so that tests can move past the ttl
// without waiting for it.
//
// Cost: taking a lock is one round trip on the job's path, shared: the takes and releases asked for
// in one tick go in one script call, releases first (so a lock released and taken in one call never
// stands free for another process), each take answered as if alone (taken, taken over from a run
// that is over, or busy). Releasing and renewing are off the job's path: a release goes out at the
// end of its tick, where the connection's socket (src/redis/prepare-redis-socket.ts) sends it in one write with
// BullMQ's moveToFinished of the same jobs, and one timer renews every lock this process holds in
// one script call per third of the ttl.
// The scripts are loaded once per connection and called by hash (src/redis/script-command.ts); the
// one that reads BullMQ's job locks is src/queue/bullmq-internals/'s (lua/spaceLockSwap-n.lua).
import { randomUUID } from 'node:crypto';
import { LockLostError } from '../errors/lock-lost-error.js';
import type { Logger } from '../log/create-logger.js';
import type { RedisClient } from '../redis/redis-connections.js';
import { type ScriptCommand, scriptCommand } from '../redis/script-command.js';
import { jobKeyPrefix, spaceLockSwap } from './bullmq-internals/space-lock-swap.js';

// Renew only what we still own, the token proves it: KEYS[i] with ARGV[i], the ttl last. Answers
// 1 or 0 per key, in order.
const RENEW = `local ttl = ARGV[#ARGV]
local renewed = {}
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[i] then renewed[i] = redis.call('pexpire', key, ttl) else renewed[i] = 0 end
end
return renewed`;

/** The scripts as commands of a client (scriptCommand): defined once per client, called by their hash. */
interface LockCommands {
  /**
   * `count` keys (releases, then takes), then the count of releases, the tokens, ttl and job prefix.
   * Per key taken: 1 when it was free; the previous holder's value when that value named a job run
   * (see LockRun) that is over, so it was taken over; otherwise 0 (busy).
   */
  swap: ScriptCommand;
  /** `count` keys, then their tokens in the same order, then the ttl. */
  renewAll: ScriptCommand;
}

function lockCommands(redis: RedisClient): LockCommands {
  return {
    swap: spaceLockSwap(redis),
    renewAll: scriptCommand(redis, 'docsyncSpaceLockRenewAll', RENEW),
  };
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
  readonly lost: AbortSignal;
  /** The LockLostError once the lock is lost (as `lost.reason`), without making a signal for it. */
  readonly lostReason: LockLostError | undefined;
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
  /** BullMQ's prefix of the job keys of the queues under #prefix, for the swap to read job locks. */
  readonly #jobKeyPrefix: string;
  readonly #ttlMs: number;
  readonly #log: Logger;
  readonly #now: () => number;
  /** Releases and takes asked for in this tick, sent together in one call. */
  #batch: Batch = newBatch();
  /** A flush of #batch is scheduled at the end of this tick. */
  #flushScheduled = false;
  /** Release calls sent and not answered yet. */
  readonly #inFlight = new Set<Promise<void>>();
  /** Every lock held here: one timer renews them all. */
  readonly #held = new Set<Held>();
  #renewTimer: NodeJS.Timeout | undefined;
  #renewing = false;

  constructor(
    redis: RedisClient,
    options: { prefix: string; ttlMs: number; log: Logger; now?: () => number },
  ) {
    this.#redis = redis;
    this.#commands = lockCommands(redis);
    this.#prefix = options.prefix;
    this.#jobKeyPrefix = jobKeyPrefix(options.prefix);
    this.#ttlMs = options.ttlMs;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
  }

  keyOf(space: string, mode: LockMode = 'write'): string {
    return mode === 'write' ? `${this.#prefix}:lock:space:${space}` : `${this.#prefix}:lock:read:${space}`;
  }

  /**
   * Takes the lock of `space` when free, or when its holder's job run is over (see LockRun);
   * undefined when another live holder has it. One round trip, shared by the takes and releases
   * of one tick.
   */
  tryAcquire(
    space: string,
    owner: string,
    run?: LockRun,
    mode: LockMode = 'write',
    onLost?: (reason: LockLostError) => void,
  ): Promise<HeldLock | undefined> {
    return this.acquireKey(this.keyOf(space, mode), owner, run, onLost);
  }

  /**
   * tryAcquire by the lock's key (keyOf). `onLost` is called once if the lock is lost, as `lost` is
   * aborted, without making a signal for it.
   */
  acquireKey(
    key: string,
    owner: string,
    run?: LockRun,
    onLost?: (reason: LockLostError) => void,
  ): Promise<HeldLock | undefined> {
    const token = tokenOf(owner, run);
    return new Promise<HeldLock | undefined>((resolve, reject) => {
      this.#batch.takes.push({ key, token, onLost, resolve, reject });
      this.#scheduleFlush();
    });
  }

  /** Who holds the lock of `space` now, if anyone. */
  async holder(space: string, mode: LockMode = 'write'): Promise<string | undefined> {
    return (await this.#redis.get(this.keyOf(space, mode))) ?? undefined;
  }

  /** Resolves once every release asked for so far has had its answer (or failed). Never rejects. */
  async settled(): Promise<void> {
    this.#flush();
    await Promise.all(this.#inFlight);
  }

  /**
   * The takes and releases of this tick go out at its end, in one call: the jobs that got their
   * slot or ended in one tick share it.
   */
  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    process.nextTick(() => this.#flush());
  }

  /**
   * Sends the release of `key` with the others of this tick: one call for all,
   * one promise for all, which never rejects (a failure is logged).
   */
  #releaseSoon(key: string, token: string): Promise<void> {
    const batch = this.#batch;
    batch.releases.push({ key, token });
    batch.released ??= new Promise<void>((resolve) => {
      batch.settleReleases = resolve;
    });
    this.#scheduleFlush();
    return batch.released;
  }

  #flush(): void {
    const batch = this.#batch;
    this.#batch = newBatch();
    this.#flushScheduled = false;
    const { releases, takes } = batch;
    if (releases.length === 0 && takes.length === 0) return;
    const count = releases.length + takes.length;
    const args: Array<string | number> = new Array(count * 2 + 3);
    let at = 0;
    for (const release of releases) args[at++] = release.key;
    for (const take of takes) args[at++] = take.key;
    args[at++] = releases.length;
    for (const release of releases) args[at++] = release.token;
    for (const take of takes) args[at++] = take.token;
    args[at++] = this.#ttlMs;
    args[at] = this.#jobKeyPrefix;
    const sent = this.#commands.swap(count, ...args);
    if (takes.length > 0)
      sent.then(
        (answers) => this.#taken(takes, answers),
        (error: unknown) => {
          for (const take of takes) take.reject(error);
        },
      );
    const { released, settleReleases } = batch;
    if (released === undefined || settleReleases === undefined) return;
    this.#inFlight.add(released);
    // Unanswered for a whole ttl: the locks expire by themselves, nobody needs to wait longer.
    withTimeout(sent, this.#ttlMs).then(
      () => {
        this.#inFlight.delete(released);
        settleReleases();
      },
      (error: unknown) => {
        // They expire by themselves within the ttl.
        for (const release of releases)
          this.#log.warn({ lock: release.key, err: error }, 'space lock release failed');
        this.#inFlight.delete(released);
        settleReleases();
      },
    );
  }

  #taken(takes: readonly PendingTake[], answers: unknown): void {
    const list = Array.isArray(answers) ? answers : [];
    for (const [i, take] of takes.entries()) {
      const answer: unknown = list[i];
      if (answer === 1) take.resolve(this.#hold(take));
      else if (typeof answer !== 'string') take.resolve(undefined);
      else {
        this.#log.warn(
          { lock: take.key, holder: describeHolder(answer) },
          'space lock of a job run that ended taken over',
        );
        take.resolve(this.#hold(take));
      }
    }
  }

  #hold(take: PendingTake): HeldLock {
    const held = new Held(take.key, take.token, this.#now(), take.onLost, (lock) => {
      this.#forget(lock);
      return this.#releaseSoon(lock.key, lock.token);
    });
    this.#held.add(held);
    if (this.#renewTimer === undefined) {
      this.#renewTimer = setInterval(() => void this.#renewAll(), this.#renewIntervalMs());
      this.#renewTimer.unref();
    }
    return held;
  }

  #forget(lock: Held): void {
    this.#held.delete(lock);
    if (this.#held.size === 0 && this.#renewTimer !== undefined) {
      clearInterval(this.#renewTimer);
      this.#renewTimer = undefined;
    }
  }

  #renewIntervalMs(): number {
    return Math.max(100, Math.floor(this.#ttlMs / 3));
  }

  /** Extends every lock held here in one script call; a holder that lost its lock is told. */
  async #renewAll(): Promise<void> {
    // A renewal still waiting for its answer is renewing these locks already.
    if (this.#renewing || this.#held.size === 0) return;
    this.#renewing = true;
    const locks = [...this.#held];
    try {
      const args: Array<string | number> = new Array(locks.length * 2 + 1);
      for (const [i, lock] of locks.entries()) {
        args[i] = lock.key;
        args[locks.length + i] = lock.token;
      }
      args[locks.length * 2] = this.#ttlMs;
      const renewed = await withTimeout(
        this.#commands.renewAll(locks.length, ...args),
        this.#renewIntervalMs(),
      );
      const answers = Array.isArray(renewed) ? renewed : [];
      const now = this.#now();
      for (const [i, lock] of locks.entries()) {
        if (lock.done) continue;
        // 0: the key expired or another holder has it now.
        if (answers[i] === 1) lock.renewedAt = now;
        else this.#lose(lock, new LockLostError(lock.key));
      }
    } catch (error) {
      const now = this.#now();
      for (const lock of locks) {
        if (lock.done) continue;
        // A slow or failed renewal is not a loss yet: the lock still holds until its ttl runs out.
        if (now - lock.renewedAt >= this.#ttlMs)
          this.#lose(lock, new LockLostError(lock.key, { cause: error }));
        else
          this.#log.debug({ lock: lock.key, err: error }, 'space lock renewal failed, the lock still holds');
      }
    } finally {
      this.#renewing = false;
    }
  }

  #lose(lock: Held, reason: LockLostError): void {
    this.#forget(lock);
    lock.lose(reason);
  }
}

/** One lock held here: no timer nor signal of its own unless someone asks for `lost`. */
class Held implements HeldLock {
  readonly key: string;
  readonly token: string;
  /** When Redis last confirmed it (this process's clock). */
  renewedAt: number;
  readonly #release: (lock: Held) => Promise<void>;
  readonly #onLost: ((reason: LockLostError) => void) | undefined;
  #lostReason: LockLostError | undefined;
  #lost: AbortController | undefined;
  #released: Promise<void> | undefined;

  constructor(
    key: string,
    token: string,
    now: number,
    onLost: ((reason: LockLostError) => void) | undefined,
    release: (lock: Held) => Promise<void>,
  ) {
    this.key = key;
    this.token = token;
    this.renewedAt = now;
    this.#onLost = onLost;
    this.#release = release;
  }

  /** Released or lost: renewals leave it alone. */
  get done(): boolean {
    return this.#released !== undefined || this.#lostReason !== undefined;
  }

  get lost(): AbortSignal {
    if (this.#lost === undefined) {
      this.#lost = new AbortController();
      if (this.#lostReason !== undefined) this.#lost.abort(this.#lostReason);
    }
    return this.#lost.signal;
  }

  get lostReason(): LockLostError | undefined {
    return this.#lostReason;
  }

  lose(reason: LockLostError): void {
    if (this.done) return;
    this.#lostReason = reason;
    this.#lost?.abort(reason);
    this.#onLost?.(reason);
  }

  release(): Promise<void> {
    this.#released ??= this.#release(this);
    return this.#released;
  }
}

/** The takes and releases of one tick. */
interface Batch {
  releases: PendingRelease[];
  takes: PendingTake[];
  /** Resolves when the releases were answered or failed: one promise for all of them. */
  released?: Promise<void>;
  settleReleases?: () => void;
}

function newBatch(): Batch {
  return { releases: [], takes: [] };
}

interface PendingTake {
  key: string;
  token: string;
  onLost: ((reason: LockLostError) => void) | undefined;
  resolve(lock: HeldLock | undefined): void;
  reject(error: unknown): void;
}

interface PendingRelease {
  key: string;
  token: string;
}

/** A lock value: the run's JSON (see LockRun) or, without a run, the owner and a random id. */
function tokenOf(owner: string, run: LockRun | undefined): string {
  if (run === undefined) return `${owner}:${randomUUID()}`;
  // The JSON of {owner, queue, job, token, id}, written out: one per job, on its path.
  return `{"owner":${JSON.stringify(owner)},"queue":${JSON.stringify(run.queue)},"job":${JSON.stringify(run.job)},"token":${JSON.stringify(run.token)},"id":"${nextId()}"}`;
}

/** Ids unique to this process's lock values: a random prefix, then a counter. */
const ID_PREFIX = randomUUID();
let idCount = 0;
function nextId(): string {
  idCount += 1;
  return `${ID_PREFIX}.${idCount}`;
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
