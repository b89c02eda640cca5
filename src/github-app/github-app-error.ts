// A GitHub App that could not get an installation token: GitHub refused the app's JWT or knows no
// such installation (permanent), or did not answer (retried). A key that is not one stops the start
// instead (read-app-key.ts). The HTTP status is `httpStatus`, not `status`: the job runner pauses a whole queue for
// an error whose `status` is 429 (see git-host-error.ts).
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCodeSubset } from '../errors/error-codes.js';

export type GitHubAppErrorCode = ErrorCodeSubset<'GITHUB_APP_REFUSED' | 'GITHUB_APP_UNREACHABLE'>;

export class GitHubAppError extends DocsyncError {
  declare readonly code: GitHubAppErrorCode;
  /** GitHub's answer, when it gave one. */
  readonly httpStatus: number | undefined;
  /** The setting to fix, such as `git.auth.githubApp.installationId`. */
  readonly setting: string;

  constructor(
    code: GitHubAppErrorCode,
    message: string,
    details: { setting: string; httpStatus?: number | undefined; cause?: unknown },
  ) {
    super(code, message, { cause: details.cause, retryable: code === 'GITHUB_APP_UNREACHABLE' });
    this.httpStatus = details.httpStatus;
    this.setting = details.setting;
  }
}
