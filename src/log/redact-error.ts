// An error whose message and stack are safe to store where pino's redaction never looks (BullMQ
// keeps a failed job's reason and stack in Redis): credentials in URLs (user information and secret
// query parameters, see redact-url-credentials.ts) are hidden, the original is kept as the cause for
// this process only.
import { redactUrlCredentials } from './redact-url-credentials.js';

export function redactError<E>(error: E): E | Error | string {
  if (typeof error === 'string') return redactUrlCredentials(error);
  if (!(error instanceof Error)) return error;
  const message = redactUrlCredentials(error.message);
  const stack = error.stack === undefined ? undefined : redactUrlCredentials(error.stack);
  if (message === error.message && stack === error.stack) return error;
  const safe = new Error(message, { cause: error });
  safe.name = error.name;
  if (stack !== undefined) safe.stack = stack;
  for (const key of ['code', 'retryable'] as const) {
    if (key in error)
      Object.defineProperty(safe, key, {
        value: (error as unknown as Record<string, unknown>)[key],
        enumerable: true,
      });
  }
  return safe;
}
