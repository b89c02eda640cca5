// A request that got no usable answer (refused, reset, timed out, aborted, client closed) turned
// into an ApiError. The low-level error is kept as a sanitized cause: name, code and message only.
import { ApiError, type ApiErrorCode } from './api-error.js';
import { sanitizeCause } from './sanitize-cause.js';

export interface FailureContext {
  method: string;
  path: string;
  secrets: readonly string[];
  /** The status when headers had arrived before the failure (a body cut short), else 0. */
  status: number;
  requestId: string | undefined;
  /** The caller's signal fired. */
  aborted: boolean;
  /** The attempt's own deadline fired. */
  timedOut: boolean;
  closed: boolean;
  timeoutMs: number;
}

const TIMEOUT_CODES = ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT'];

export function errorFromFailure(error: unknown, context: FailureContext): ApiError {
  const { method, path } = context;
  const systemCode = systemCodeOf(error);
  const code: ApiErrorCode = context.aborted
    ? 'API_ABORTED'
    : context.timedOut || (systemCode !== undefined && TIMEOUT_CODES.includes(systemCode))
      ? 'API_TIMEOUT'
      : context.closed
        ? 'API_CLIENT_CLOSED'
        : 'API_NETWORK_ERROR';
  const what = describe(code, systemCode, context.timeoutMs);
  const cause = sanitizeCause(error, context.secrets);
  return new ApiError({
    code,
    method,
    path,
    status: context.status,
    message: `${method} ${path}: ${what}`,
    retryable: code === 'API_TIMEOUT' || code === 'API_NETWORK_ERROR',
    ...(context.requestId === undefined ? {} : { requestId: context.requestId }),
    ...(systemCode === undefined ? {} : { systemCode }),
    ...(cause === undefined ? {} : { cause }),
  });
}

function describe(code: ApiErrorCode, systemCode: string | undefined, timeoutMs: number): string {
  switch (code) {
    case 'API_ABORTED':
      return 'aborted';
    case 'API_TIMEOUT':
      return `no complete answer within ${timeoutMs} ms`;
    case 'API_CLIENT_CLOSED':
      return 'client closed';
    default:
      return `network error ${systemCode ?? 'without code'}`;
  }
}

/** `ECONNREFUSED`, `UND_ERR_SOCKET`, ...; for an AggregateError (happy eyeballs), its first error's. */
function systemCodeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  if (error instanceof AggregateError) return systemCodeOf(error.errors[0]);
  return undefined;
}
