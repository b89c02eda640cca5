// Puts the job schedulers back when Redis comes back empty under a running docsync: a Redis without
// persistence restarted, a failover to a replica that had not caught up, a FLUSHALL. BullMQ's
// workers reconnect by themselves, but a poll's scheduler lives only in Redis: without this, every
// poll would stop until docsync restarts. A marker key, written once the schedulers are in place,
// vouches for them; each process looks for it every few seconds and whenever its connection is ready
// again. The first process to find it gone restores the schedulers under a short lock; the others
// find the marker back, or the lock taken, and do nothing.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../log/create-logger.js';
import type { RedisLossCheck } from '../metrics/docsync-metrics.js';
import type { RedisClient } from '../redis/redis-connections.js';
import { type ScriptCommand, scriptCommand } from '../redis/script-command.js';

/** A restore that takes longer (or whose process died) lets another process try after this. */
export const RESTORE_LOCK_TTL_MS = 30_000;

/**
 * One look, atomic so that a process cannot restore after another finished: the marker present (0),
 * the lock taken here (1), or taken by another process restoring (2). KEYS: marker, lock. ARGV:
 * token, ttl in ms.
 */
const CLAIM = `if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 2`;

/** Writes the marker (unless ARGV[2] is empty), then frees the lock if it is still this token's. */
const FINISH = `if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[2]) end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1`;

const CLAIMED = { present: 0, ours: 1, elsewhere: 2 } as const;

/** What one look found and did; `skipped` when Redis was not connected (no look). */
export type LossCheck = RedisLossCheck | 'skipped';

export interface RedisLossWatchOptions {
  /** A connection that fails fast while Redis is away (the producer one): a look never hangs. */
  redis: RedisClient;
  /** redis.prefix: the marker and the lock live beside BullMQ's keys, in their hash slot on a Cluster. */
  prefix: string;
  intervalMs: number;
  /** Puts every scheduler back (sync-all-schedulers.ts). */
  restore: () => Promise<void>;
  log: Logger;
  /** Told what each look found and did (the metric). */
  onLook?: (result: RedisLossCheck) => void;
  /** Where Redis is, password hidden, for the log line. */
  description?: string;
  now?: () => Date;
}

export class RedisLossWatch {
  readonly #options: RedisLossWatchOptions;
  readonly #claim: ScriptCommand;
  readonly #finish: ScriptCommand;
  readonly #marker: string;
  readonly #lock: string;
  readonly #token = `${hostname()}:${process.pid}:${randomUUID()}`;
  #timer: NodeJS.Timeout | undefined;
  #looking: Promise<LossCheck> | undefined;
  #closed = false;
  readonly #onReady = () => {
    void this.check();
  };

  constructor(options: RedisLossWatchOptions) {
    this.#options = options;
    this.#claim = scriptCommand(options.redis, 'docsyncClaimSchedulerRestore', CLAIM);
    this.#finish = scriptCommand(options.redis, 'docsyncFinishSchedulerRestore', FINISH);
    this.#marker = schedulersMarkerKey(options.prefix);
    this.#lock = `${options.prefix}:lock:restore-schedulers`;
  }

  /** Writes the marker (the schedulers were just put in place), then looks on every tick and reconnect. */
  async start(): Promise<void> {
    await this.#options.redis.set(this.#marker, this.#markerValue());
    if (this.#closed) return;
    this.#timer = setInterval(() => void this.check(), this.#options.intervalMs);
    this.#timer.unref();
    this.#options.redis.on('ready', this.#onReady);
  }

  /** One look, unless one is under way (its answer then) or Redis is not connected. */
  check(): Promise<LossCheck> {
    if (this.#closed || this.#options.redis.status !== 'ready') return Promise.resolve('skipped');
    this.#looking ??= this.#look()
      .then((result) => {
        this.#options.onLook?.(result);
        return result;
      })
      .finally(() => {
        this.#looking = undefined;
      });
    return this.#looking;
  }

  /** Stops looking and waits for a look under way. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#options.redis.removeListener('ready', this.#onReady);
    await this.#looking;
  }

  async #look(): Promise<RedisLossCheck> {
    const { log } = this.#options;
    let claimed: unknown;
    try {
      claimed = await this.#claim(2, this.#marker, this.#lock, this.#token, RESTORE_LOCK_TTL_MS);
    } catch (error) {
      // Redis went away between the status and the call: the next tick or reconnect looks again.
      log.debug({ err: error }, 'redis loss check failed');
      return 'failed';
    }
    if (claimed === CLAIMED.present) return 'present';
    if (claimed !== CLAIMED.ours) return 'restoring-elsewhere';
    const started = Date.now();
    try {
      await this.#options.restore();
      await this.#finish(2, this.#marker, this.#lock, this.#token, this.#markerValue());
    } catch (error) {
      log.warn({ err: error }, 'redis came back empty, schedulers not restored yet');
      // Best effort: the lock expires anyway, and the next look tries again.
      await this.#finish(2, this.#marker, this.#lock, this.#token, '').catch(() => undefined);
      return 'failed';
    }
    log.warn(
      { redis: this.#options.description, prefix: this.#options.prefix, durationMs: Date.now() - started },
      'redis came back empty, schedulers restored',
    );
    return 'restored';
  }

  #markerValue(): string {
    const now = this.#options.now?.() ?? new Date();
    return JSON.stringify({ at: now.toISOString(), by: `${hostname()}:${process.pid}` });
  }
}

/** The key whose presence vouches for the job schedulers: `<prefix>:state:schedulers-in-place`. */
export function schedulersMarkerKey(prefix: string): string {
  return `${prefix}:state:schedulers-in-place`;
}
