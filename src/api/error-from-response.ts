// An answer the caller cannot use, turned into an ApiError: the service's own message from its
// error body (`{"error": {"code", "message"}}`), the Retry-After it asked for, and whether asking
// again may help.
import { STATUS_CODES } from 'node:http';
import { ApiError } from './api-error.js';
import { type ApiRetryPolicy, isRetryableStatus } from './api-retry-policy.js';
import { parseRetryAfter } from './parse-retry-after.js';
import { redactSecrets } from './redact-secrets.js';

/** What one attempt got back, read in full (or `bytes` undefined when it was over `maxBytes`). */
export interface ResponseAnswer {
  method: string;
  path: string;
  secrets: readonly string[];
  status: number;
  requestId: string | undefined;
  retryAfter: string | undefined;
  bytes: Buffer | undefined;
  maxBytes: number;
  /** When the answer arrived, for a Retry-After given as a date. */
  now: number;
}

const MAX_SERVICE_MESSAGE = 500;

export function errorFromResponse(answer: ResponseAnswer, policy: ApiRetryPolicy): ApiError {
  const { method, path, status } = answer;
  const base = {
    method,
    path,
    status,
    ...(answer.requestId === undefined ? {} : { requestId: answer.requestId }),
  };
  if (answer.bytes === undefined) {
    return new ApiError({
      ...base,
      code: 'API_RESPONSE_TOO_LARGE',
      message: `${method} ${path}: ${status} response larger than ${answer.maxBytes} bytes`,
    });
  }
  if (status >= 200 && status < 300) {
    return new ApiError({
      ...base,
      code: 'API_RESPONSE_INVALID',
      message: `${method} ${path}: unexpected status ${status}`,
    });
  }
  const serviceMessage = readServiceMessage(answer.bytes, answer.secrets);
  const retryAfterMs = policy.retryAfterStatuses.includes(status)
    ? parseRetryAfter(answer.retryAfter, answer.now)
    : undefined;
  const reason = serviceMessage ?? STATUS_CODES[status] ?? 'error';
  return new ApiError({
    ...base,
    code: 'API_HTTP_ERROR',
    message: `${method} ${path}: ${status} ${reason}`,
    retryable: isRetryableStatus(status, policy),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(serviceMessage === undefined ? {} : { serviceMessage }),
  });
}

/** `error.message` of the documented error body, bounded and without secrets; else undefined. */
function readServiceMessage(bytes: Buffer, secrets: readonly string[]): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error: unknown = body.error;
  if (typeof error !== 'object' || error === null || !('message' in error)) return undefined;
  const message: unknown = error.message;
  if (typeof message !== 'string' || message.trim() === '') return undefined;
  return redactSecrets(message.trim().slice(0, MAX_SERVICE_MESSAGE), secrets);
}
