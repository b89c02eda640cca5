// The shared budget of the service (service.rateLimit) as /status, the status page and the metrics
// show it: the tokens every process took in the last window, out of the limit, and the calls that
// waited for one in the current window. Read from Redis without taking anything; the page's line
// is page-service-budget.ts.
import { z } from 'zod';
import { type RateLimit, ServiceBudgetScript } from '../api/service-budget-script.js';
import type { RedisClient } from '../redis/redis-connections.js';

export const serviceBudgetStatusSchema = z.object({
  requests: z.number(),
  perMs: z.number(),
  /** Tokens taken in the last `perMs`, by every process on the Redis. */
  taken: z.number(),
  /** Calls that waited for a token in the current window of `perMs`. */
  waits: z.number(),
});

export type ServiceBudgetStatus = z.output<typeof serviceBudgetStatusSchema>;

/** The reader of the budget under `prefix`, on a connection that fails fast (the producer's). */
export function serviceBudgetReader(
  redis: RedisClient,
  prefix: string,
  limit: RateLimit,
): () => Promise<ServiceBudgetStatus> {
  const script = new ServiceBudgetScript(redis, prefix, limit);
  return async () => {
    const { taken, waits } = await script.peek();
    return { requests: limit.requests, perMs: limit.perMs, taken, waits };
  };
}
