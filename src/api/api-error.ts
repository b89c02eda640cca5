// The one error type of the service client. It names the request (method and path, never the query
// string nor any header) and says whether trying again may help; it never carries the API token.
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCode } from '../errors/error-codes.js';

/**
 * The codes of a failed request. API_HTTP_ERROR: a status the caller did not expect (4xx, 5xx, an
 * unlisted 2xx), read `status`; API_NETWORK_ERROR: no answer (refused, reset, DNS, socket closed);
 * API_RESPONSE_INVALID: not JSON, not its schema, or a list cursor that repeats. What each code
 * means for a user: src/errors/error-codes.ts.
 */
export const API_ERROR_CODES = [
  'API_HTTP_ERROR',
  'API_NETWORK_ERROR',
  'API_TIMEOUT',
  'API_RESPONSE_INVALID',
  'API_RESPONSE_TOO_LARGE',
  'API_ABORTED',
  'API_CLIENT_CLOSED',
] as const satisfies readonly ErrorCode[];

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export interface ApiErrorInit {
  code: ApiErrorCode;
  message: string;
  method: string;
  /** The path below the base URL, without its query string: `/spaces/abc/links`. */
  path: string;
  /** The HTTP status, or 0 when no answer arrived. */
  status?: number;
  requestId?: string;
  retryable?: boolean;
  /** How long the service asked to wait (Retry-After on 429 and 503). */
  retryAfterMs?: number;
  /** `error.message` of the service's error body, when it sent one. */
  serviceMessage?: string;
  /** Schema problems as `path: message`, for API_RESPONSE_INVALID. */
  issues?: readonly string[];
  /** The Node or undici code behind a network failure: `ECONNREFUSED`, `UND_ERR_SOCKET`. */
  systemCode?: string;
  /** Must already be free of secrets: see `sanitizeCause`. */
  cause?: unknown;
}

export class ApiError extends DocsyncError {
  declare readonly code: ApiErrorCode;
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly requestId: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly issues: readonly string[];
  readonly systemCode: string | undefined;

  constructor(init: ApiErrorInit) {
    super(init.code, init.message, {
      retryable: init.retryable ?? false,
      ...(init.cause === undefined ? {} : { cause: init.cause }),
    });
    this.status = init.status ?? 0;
    this.method = init.method;
    this.path = init.path;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    this.serviceMessage = init.serviceMessage;
    this.issues = init.issues ?? [];
    this.systemCode = init.systemCode;
  }

  /** True for an answer of the service with this status (a 404 of a record that is gone, say). */
  hasStatus(status: number): boolean {
    return this.code === 'API_HTTP_ERROR' && this.status === status;
  }
}

export function isApiError(error: unknown, code?: ApiErrorCode): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
