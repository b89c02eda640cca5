// A failure a check did not expect, told in one line without secrets: its message, or the code of
// a system error (ENOENT, ECONNREFUSED) when that is all there is.
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { CheckTimeoutError } from './check-runner.js';
import type { DoctorCode } from './doctor-codes.js';

export function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    const system = (error as NodeJS.ErrnoException).code;
    const message = error.message.trim() || (typeof system === 'string' ? system : error.name);
    return redactUrlCredentials(message.split('\n')[0] ?? message);
  }
  return redactUrlCredentials(String(error));
}

/** The code a finding carries for a failure nothing more specific explains. */
export function failureCode(error: unknown): ErrorCode | DoctorCode {
  if (error instanceof CheckTimeoutError) return 'CHECK_TIMEOUT';
  if (error instanceof DocsyncError) return error.code;
  return 'CHECK_FAILED';
}
