// A bundle the object storage of `artifacts.s3` did not take, or an answer it did not give: the
// bucket missing, the credentials refused, the clock too far off, the store unreachable (retried).
// The HTTP status is `httpStatus`, not `status`: the job runner pauses a whole queue for an error
// whose `status` is 429, and a throttling bucket must not hold back the service's other jobs.
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCodeSubset } from '../errors/error-codes.js';

export type ArtifactStorageErrorCode = ErrorCodeSubset<
  | 'ARTIFACT_BUCKET_MISSING'
  | 'ARTIFACT_STORAGE_REFUSED'
  | 'ARTIFACT_CLOCK_SKEW'
  | 'ARTIFACT_STORAGE_UNREACHABLE'
  | 'ARTIFACT_STORAGE_FAILED'
>;

export class ArtifactStorageError extends DocsyncError {
  declare readonly code: ArtifactStorageErrorCode;
  /** The store's answer, when it gave one. */
  readonly httpStatus: number | undefined;
  /** The store's error code (`NoSuchBucket`, `InvalidAccessKeyId`) or the socket's (`ECONNREFUSED`). */
  readonly storageCode: string | undefined;

  constructor(
    code: ArtifactStorageErrorCode,
    message: string,
    details: { httpStatus?: number | undefined; storageCode?: string | undefined; cause?: unknown } = {},
  ) {
    super(code, message, { cause: details.cause, retryable: code === 'ARTIFACT_STORAGE_UNREACHABLE' });
    this.httpStatus = details.httpStatus;
    this.storageCode = details.storageCode;
  }
}
