// The arithmetic of the shared budget of the service, one Lua script that Redis runs atomically
// with its own clock (TIME), so that the clocks of the processes sharing it do not matter. The
// bucket holds `requests` tokens; each token taken comes back `per` (and a margin) after it was
// taken, so that no window of `per` sees more than `requests` tokens taken, whichever processes
// took them (a refilling bucket would let a full bucket's burst and the next refill fall into one
// window). Two keys with one hash tag, so that a Redis Cluster runs the script on one node.
import type { RedisClient } from '../redis/redis-connections.js';
import { scriptCommand } from '../redis/script-command.js';

/** The service's limit: `requests` in any window of `perMs`. */
export interface RateLimit {
  requests: number;
  perMs: number;
}

// KEYS[1]: the tokens taken, a sorted set scored by when (ms of Redis TIME);
// KEYS[2]: the calls that had to wait, counted per window of `per` (hash: window, waits).
// ARGV: mode ('take' or 'peek'), requests, per ms, return ms (per and the margin), reserve (tokens
// that must stay in the bucket after this take), whether a refusal counts as a call's wait ('1').
// take answers {1, 0} when a token was taken, {0, ms} when the caller must wait ms first: until
// the token that puts the bucket above the reserve comes back. peek answers {taken, waits, now}.
const SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local requests = tonumber(ARGV[2])
local per = tonumber(ARGV[3])
local back = tonumber(ARGV[4])
local window = now - now % per
local stats = redis.call('HMGET', KEYS[2], 'window', 'waits')
local waits = 0
if tonumber(stats[1]) == window then waits = tonumber(stats[2]) or 0 end
if ARGV[1] == 'peek' then
  return {redis.call('ZCOUNT', KEYS[1], '(' .. (now - back), '+inf'), waits, now}
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - back)
local taken = redis.call('ZCARD', KEYS[1])
local allowed = requests - tonumber(ARGV[5])
if taken < allowed then
  redis.call('ZADD', KEYS[1], now, now .. '-' .. taken)
  redis.call('PEXPIRE', KEYS[1], back + 1000)
  return {1, 0}
end
if ARGV[6] == '1' then
  redis.call('HSET', KEYS[2], 'window', window, 'waits', waits + 1)
  redis.call('PEXPIRE', KEYS[2], per * 2)
end
local due = redis.call('ZRANGE', KEYS[1], taken - allowed, taken - allowed, 'WITHSCORES')
return {0, math.max(1, tonumber(due[2]) + back - now)}
`;

/** What one take of the script answered. */
export type TakeAnswer = { taken: true } | { taken: false; waitMs: number };

/** The budget as /status shows it, in Redis's time. */
export interface BudgetUse {
  /** Tokens taken in the last `per`, by every process. */
  taken: number;
  /** Calls that had to wait in the current window of `per` (windows aligned to Redis's clock). */
  waits: number;
  /** Redis's clock, ms since the epoch. */
  at: number;
}

/**
 * Jitter between a token taken and its request arriving at the service (a busy event loop, a new
 * connection, the network): a token comes back this much later than `per` (a twentieth of it, at
 * most a second), so that two requests a window apart in Redis's time do not arrive closer.
 */
export function returnMarginMs(perMs: number): number {
  return Math.min(1000, Math.ceil(perMs / 20));
}

/** The keys of the budget under `prefix`, hash-tagged together (the prefix's own tag wins if it has one). */
export function budgetKeys(prefix: string): [string, string] {
  return [`${prefix}:{service-budget}:taken`, `${prefix}:{service-budget}:waits`];
}

export class ServiceBudgetScript {
  readonly #run: ReturnType<typeof scriptCommand>;
  readonly #keys: [string, string];
  readonly #args: [number, number, number];

  constructor(redis: RedisClient, prefix: string, limit: RateLimit) {
    this.#run = scriptCommand(redis, 'docsyncServiceBudget', SCRIPT);
    this.#keys = budgetKeys(prefix);
    this.#args = [limit.requests, limit.perMs, limit.perMs + returnMarginMs(limit.perMs)];
  }

  /** Takes a token if one is free above `reserve`; a refusal with `firstAsk` counts as a wait. */
  async take(reserve: number, firstAsk: boolean): Promise<TakeAnswer> {
    const answer = await this.#run(2, ...this.#keys, 'take', ...this.#args, reserve, firstAsk ? '1' : '0');
    const [taken = 0, waitMs = 0] = numbers(answer, 2);
    return taken === 1 ? { taken: true } : { taken: false, waitMs };
  }

  /** The budget used now, without taking anything. */
  async peek(): Promise<BudgetUse> {
    const answer = await this.#run(2, ...this.#keys, 'peek', ...this.#args, 0, '0');
    const [taken = 0, waits = 0, at = 0] = numbers(answer, 3);
    return { taken, waits, at };
  }
}

function numbers(answer: unknown, count: number): number[] {
  if (!Array.isArray(answer) || answer.length < count || !answer.every((n) => typeof n === 'number'))
    throw new TypeError('the service budget script answered something else than numbers');
  return answer;
}
