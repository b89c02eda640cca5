// Retry policy of jobs as data: which failures are worth another attempt, how long to wait, how
// much of a job's history to keep. Tests read this table; code decides by class and code, never by
// message. Which HTTP statuses of the service are passing is the API client's table
// (src/api/api-retry-policy.ts): its ApiError carries the verdict as `retryable`.
import type { DefaultJobOptions } from 'bullmq';
import { ZodError } from 'zod';
import { DocsyncError } from '../errors/docsync-error.js';
import type { QueueSettings } from './queue-settings.js';

export const RETRY_POLICY = {
  /** Node socket errors that mean "try again later". */
  retryableSystemCodes: [
    'ECONNRESET',
    'ECONNREFUSED',
    'ETIMEDOUT',
    'EPIPE',
    'ENOTFOUND',
    'EAI_AGAIN',
    'UND_ERR_SOCKET',
  ] as readonly string[],
  /** Share of each backoff delay that is randomised, so that retries of many jobs spread out. */
  backoffJitter: 0.5,
  /** How long a queue pauses after the service said 429 without a Retry-After. */
  rateLimitPauseMs: 5000,
  /**
   * The longest a 429 pauses a queue, whatever its Retry-After says (a day, a date far off, a
   * service's mistake): every process's jobs of the queue wait, and then one asks again.
   */
  maxRateLimitPauseMs: 3_600_000,
  /** A job that finds its space locked waits busyDelay times a factor drawn from this range. */
  busyDelaySpread: [0.5, 1.5] as const,
  /**
   * Work that failed for good and that a producer queues again (src/queue/work-back-off.ts): the
   * first wait, doubled per failure in a row, times a factor drawn from `spread`, at most `maxMs`.
   */
  failedWorkBackOff: { firstMs: 2000, maxMs: 600_000, spread: [0.5, 1.5] as const },
} as const;

/** The options every job of every queue starts from: bounded attempts, backoff with jitter, bounded history. */
export function defaultJobOptions(
  queues: Pick<QueueSettings, 'attempts' | 'backoff' | 'keepCompleted' | 'keepFailed'>,
): DefaultJobOptions {
  return {
    attempts: queues.attempts,
    backoff: { type: 'exponential', delay: queues.backoff, jitter: RETRY_POLICY.backoffJitter },
    removeOnComplete: { count: queues.keepCompleted.count, age: Math.round(queues.keepCompleted.age / 1000) },
    removeOnFail: { count: queues.keepFailed.count, age: Math.round(queues.keepFailed.age / 1000) },
  };
}

const SYSTEM_CODE = /^(E[A-Z0-9]+|UND_ERR_[A-Z_]+)$/;

/** True when running the same job again cannot succeed: it fails at once, without using its attempts. */
export function isPermanent(error: unknown): boolean {
  if (error instanceof DocsyncError) return !error.retryable;
  if (error instanceof ZodError) return true;
  // A system error (ENOENT, EACCES, ECONNRESET, ...) is passing only when the table says so.
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && SYSTEM_CODE.test(code))
    return !RETRY_POLICY.retryableSystemCodes.includes(code);
  // Any other unexpected error may be a passing fault: retried, within the bounded attempts.
  return false;
}

/**
 * How long to pause the whole queue for an error that says the service is rate-limiting (a 429
 * with its Retry-After, which the API client could not wait out within the call, at most
 * maxRateLimitPauseMs); undefined for any other error. Pausing the queue, rather than retrying the one job, is what spares the service.
 */
export function rateLimitPauseMs(error: unknown): number | undefined {
  const { status, retryAfterMs } = (error ?? {}) as { status?: unknown; retryAfterMs?: unknown };
  if (status !== 429) return undefined;
  const asked =
    typeof retryAfterMs === 'number' && retryAfterMs > 0 ? retryAfterMs : RETRY_POLICY.rateLimitPauseMs;
  return Math.min(asked, RETRY_POLICY.maxRateLimitPauseMs);
}
