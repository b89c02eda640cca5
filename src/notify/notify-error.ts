// A notification a webhook did not take: refused (a 4xx, sent again never) or not answered (the
// network, a timeout, a 5xx or a 429: retried with backoff). The HTTP status is `httpStatus`, not
// `status`: the job runner pauses a whole queue for an error whose `status` is 429.
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCodeSubset } from '../errors/error-codes.js';

export type NotifyErrorCode = ErrorCodeSubset<'NOTIFY_REFUSED' | 'NOTIFY_UNREACHABLE'>;

export class NotifyError extends DocsyncError {
  declare readonly code: NotifyErrorCode;
  readonly httpStatus: number | undefined;

  constructor(
    code: NotifyErrorCode,
    message: string,
    details: { httpStatus?: number; cause?: unknown } = {},
  ) {
    super(code, message, { cause: details.cause, retryable: code === 'NOTIFY_UNREACHABLE' });
    this.httpStatus = details.httpStatus;
  }
}
