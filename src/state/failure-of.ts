// A failure as the stores keep it for /status: its code, a message with any credentials of a URL
// removed (git errors can quote the remote), and a hint. Recorded by src/state/record-outcome.ts.
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { type FailureSubject, failureHint } from './failure-hint.js';
import type { Failure } from './mapping-state.js';

/**
 * The failure as the stores keep it: when, its code, its message without credentials, a hint, and
 * the next try of work that backs off.
 */
export function failureOf(
  error: unknown,
  at: Date,
  subject: FailureSubject = {},
  nextTry: string | undefined = undefined,
): Failure {
  return {
    at: at.toISOString(),
    code: error instanceof DocsyncError ? error.code : ('FAILED' satisfies ErrorCode),
    message: redactUrlCredentials(error instanceof Error ? error.message : String(error)),
    hint: redactUrlCredentials(failureHint(error, subject)),
    ...(nextTry === undefined ? {} : { nextTry }),
  };
}
