// The budget every docsync process on one Redis shares for the service (`service.rateLimit`): the
// transport takes a token before each request it sends, waiting as long as the script says when
// none is free (src/api/service-budget-script.ts), and giving up at once when the call is aborted.
// In one process, the requests of one priority queue behind each other and only the first asks
// Redis: an empty bucket is asked by one waiter per priority per process, not by every request.
// A Redis that does not answer lets requests go without the budget (a warning, throttled): the
// service's own 429 and Retry-After still hold them then.
import { setTimeout as delay } from 'node:timers/promises';
import { SharedLimit } from '../concurrency/shared-limit.js';
import type { Logger } from '../log/create-logger.js';
import { throttledErrorLog } from '../log/throttled-error-log.js';
import type { RedisClient } from '../redis/redis-connections.js';
import { type RequestPriority, reservedTokens } from './request-priority.js';
import { type BudgetUse, type RateLimit, ServiceBudgetScript } from './service-budget-script.js';

/** What the transport asks before it sends a request to the service. */
export interface RequestBudget {
  /** Resolves once the request may go; rejects with the signal's reason when it fires first. */
  take(priority: RequestPriority, signal: AbortSignal): Promise<void>;
}

/** A call that found the bucket empty (or at its reserve) and waited for its token. */
export interface BudgetWaitEvent {
  priority: RequestPriority;
  waitedMs: number;
}

export interface ServiceBudgetOptions {
  redis: RedisClient;
  prefix: string;
  limit: RateLimit;
  log: Logger;
  onWait?: (event: BudgetWaitEvent) => void;
  now?: () => number;
}

export class ServiceBudget implements RequestBudget {
  readonly #script: ServiceBudgetScript;
  readonly #limit: RateLimit;
  readonly #lanes: Record<RequestPriority, SharedLimit> = {
    high: new SharedLimit(1),
    low: new SharedLimit(1),
  };
  readonly #redisFailed: (error: Error) => void;
  readonly #onWait: ((event: BudgetWaitEvent) => void) | undefined;
  readonly #now: () => number;

  constructor(options: ServiceBudgetOptions) {
    this.#script = new ServiceBudgetScript(options.redis, options.prefix, options.limit);
    this.#limit = options.limit;
    this.#redisFailed = throttledErrorLog(options.log, 'service budget unavailable: requests go without it');
    this.#onWait = options.onWait;
    this.#now = options.now ?? Date.now;
  }

  get limit(): RateLimit {
    return this.#limit;
  }

  take(priority: RequestPriority, signal: AbortSignal): Promise<void> {
    return this.#lanes[priority].run(() => this.#ask(priority, signal), signal);
  }

  /** The budget used now by every process, without taking anything. */
  use(): Promise<BudgetUse> {
    return this.#script.peek();
  }

  async #ask(priority: RequestPriority, signal: AbortSignal): Promise<void> {
    const reserve = reservedTokens(priority, this.#limit.requests);
    const started = this.#now();
    for (let first = true; ; first = false) {
      signal.throwIfAborted();
      let answer: Awaited<ReturnType<ServiceBudgetScript['take']>>;
      try {
        answer = await this.#script.take(reserve, first);
      } catch (error) {
        this.#redisFailed(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      if (answer.taken) {
        if (!first) this.#notify({ priority, waitedMs: this.#now() - started });
        return;
      }
      // What the script says: until the token this request needs comes back, not a poll.
      await delay(answer.waitMs, undefined, { signal });
    }
  }

  #notify(event: BudgetWaitEvent): void {
    try {
      this.#onWait?.(event);
    } catch {
      // A metrics hook must not change the outcome of a request.
    }
  }
}
