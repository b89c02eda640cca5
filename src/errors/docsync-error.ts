// The base of every error docsync raises on purpose: a stable `code` to decide on, a `retryable`
// flag the job runner reads, and a message that never carries a secret.
import type { ErrorCode } from './error-codes.js';

export interface DocsyncErrorOptions {
  cause?: unknown;
  /** Whether running the same work again may succeed. Defaults to false: unknown is not retried blindly. */
  retryable?: boolean;
}

export class DocsyncError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, options: DocsyncErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retryable = options.retryable ?? false;
  }
}
