// Something outside docsync's files stops it from starting: a missing binary, an unusable Redis,
// a port taken. Like a config error, it ends the process with exit code 2 and one line on what to do.
import { DocsyncError } from './docsync-error.js';
import type { ErrorCodeSubset } from './error-codes.js';

export type EnvironmentErrorCode = ErrorCodeSubset<
  | 'REDIS_SERVER_MISSING'
  | 'REDIS_SERVER_FAILED'
  | 'REDIS_TOO_OLD'
  | 'REDIS_UNREACHABLE'
  | 'REDIS_TLS_FILE_UNREADABLE'
  | 'DATA_DIR_BUSY'
  | 'DATA_DIR_NOT_WRITABLE'
  | 'HTTP_LISTEN_FAILED'
  | 'HTTP_UNPROTECTED'
  | 'STATE_FILE_INVALID'
  | 'GIT_AUTH_KEY_INVALID'
>;

export class EnvironmentError extends DocsyncError {
  declare readonly code: EnvironmentErrorCode;

  constructor(code: EnvironmentErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}
