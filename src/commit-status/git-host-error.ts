// A commit status the git host did not take: refused (a 4xx: the token, the repository, the
// commit) or not answered (the network, a timeout, a 5xx or a 429, retried). The HTTP status is
// `httpStatus`, not `status`: the job runner pauses a whole queue for an error whose `status` is
// 429, and a git host's rate limit must not hold back the documentation service's link checks.
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCodeSubset } from '../errors/error-codes.js';

export type GitHostErrorCode = ErrorCodeSubset<'GIT_HOST_REFUSED' | 'GIT_HOST_UNREACHABLE'>;

export class GitHostError extends DocsyncError {
  declare readonly code: GitHostErrorCode;
  /** The git host's answer, when it gave one. */
  readonly httpStatus: number | undefined;
  /** `github` or `gitlab`. */
  readonly host: string;

  constructor(
    code: GitHostErrorCode,
    message: string,
    details: { host: string; httpStatus?: number | undefined; cause?: unknown },
  ) {
    super(code, message, { cause: details.cause, retryable: code === 'GIT_HOST_UNREACHABLE' });
    this.httpStatus = details.httpStatus;
    this.host = details.host;
  }
}
