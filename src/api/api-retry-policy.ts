// When the transport sends a request again by itself, and how long it waits first: a table tests
// read, and pure functions of it. Only idempotent methods are retried blindly; POST and PATCH are
// retried only when the request provably was not acted on: it never left this machine, or the
// service refused it with a 429 (a rate limit answers before doing anything).
import type { ApiError } from './api-error.js';

const SECOND = 1000;

export interface ApiRetryPolicy {
  /** Methods whose repetition has the effect of one call, so a lost answer may be asked again. */
  idempotentMethods: readonly string[];
  /** Statuses worth another attempt; every other 4xx and 5xx is final. */
  retryableStatuses: readonly number[];
  /** Statuses on which a Retry-After header is read. */
  retryAfterStatuses: readonly number[];
  /** Socket codes meaning the connection was never made, so even a POST did not reach the service. */
  neverSentSystemCodes: readonly string[];
  /** Statuses by which the service refused a request without acting on it: any method is asked again. */
  refusedStatuses: readonly number[];
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Wait before the second attempt; doubles each time. */
  baseDelayMs: number;
  /** No computed wait is longer than this. */
  maxDelayMs: number;
  /** Share of each computed wait that is randomised (0 to 1), so that many clients spread out. */
  jitter: number;
  /**
   * A Retry-After longer than this is not waited out inside one call: the error goes up with
   * `retryAfterMs` so that the queue can pause as a whole (docs/architecture.md: a 429 pauses the queue).
   */
  maxRetryAfterMs: number;
}

export const API_RETRY_POLICY = {
  idempotentMethods: ['GET', 'HEAD', 'PUT', 'DELETE'],
  retryableStatuses: [408, 429, 500, 502, 503, 504],
  retryAfterStatuses: [429, 503],
  neverSentSystemCodes: ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT'],
  refusedStatuses: [429],
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 8 * SECOND,
  jitter: 0.5,
  maxRetryAfterMs: 60 * SECOND,
} as const satisfies ApiRetryPolicy;

/** Whether an answer with this status may succeed when asked again later. */
export function isRetryableStatus(status: number, policy: ApiRetryPolicy = API_RETRY_POLICY): boolean {
  return policy.retryableStatuses.includes(status);
}

/**
 * How long to wait after failed attempt number `attempt` (1 for the first): the service's
 * Retry-After when it gave one, otherwise exponential backoff from `baseDelayMs`, capped at
 * `maxDelayMs`, of which a `jitter` share is taken away at random. `random` returns [0, 1).
 */
export function retryDelayMs(
  attempt: number,
  error: Pick<ApiError, 'retryAfterMs'>,
  random: () => number,
  policy: ApiRetryPolicy = API_RETRY_POLICY,
): number {
  if (error.retryAfterMs !== undefined) return Math.max(0, error.retryAfterMs);
  const exponent = Math.max(0, attempt - 1);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
  const jitter = Math.min(1, Math.max(0, policy.jitter));
  return Math.round(ceiling * (1 - jitter * clampUnit(random())));
}

/**
 * The wait before sending `method` again after failed attempt `attempt`, or undefined when the
 * transport must give up and throw: the error is final, attempts are spent, the method is not
 * idempotent (unless the request was never sent or refused), or the service asked for a pause too long to hold.
 */
export function planRetry(
  method: string,
  error: Pick<ApiError, 'retryable' | 'retryAfterMs' | 'systemCode'> & { status?: number },
  attempt: number,
  random: () => number,
  policy: ApiRetryPolicy = API_RETRY_POLICY,
): number | undefined {
  if (!error.retryable || attempt >= policy.maxAttempts) return undefined;
  const neverSent = error.systemCode !== undefined && policy.neverSentSystemCodes.includes(error.systemCode);
  const refused = error.status !== undefined && policy.refusedStatuses.includes(error.status);
  if (!policy.idempotentMethods.includes(method.toUpperCase()) && !neverSent && !refused) return undefined;
  if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs) return undefined;
  return retryDelayMs(attempt, error, random, policy);
}

function clampUnit(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
