// What an error of the AWS SDK (or of the socket under it) means for docsync, by its name, HTTP
// status and system code, as pure data and one function: the SDK is loaded lazily, so nothing here
// may import its classes. The names are those S3 itself answers (its error `Code`), which
// S3-compatible stores (MinIO, R2, GCS) reuse.
import { ArtifactStorageError, type ArtifactStorageErrorCode } from './artifact-storage-error.js';

/** What docsync was doing, for the message: `upload the bundle to`, `list the objects of`. */
export type S3Operation =
  | 'upload the bundle to'
  | 'delete a bundle from'
  | 'list the objects of'
  | 'write to';

export const S3_ERROR_NAMES = {
  bucketMissing: ['NoSuchBucket'],
  refused: [
    'InvalidAccessKeyId',
    'SignatureDoesNotMatch',
    'AccessDenied',
    'AccountProblem',
    'AllAccessDisabled',
    'ExpiredToken',
    'InvalidToken',
    'TokenRefreshRequired',
    'InvalidClientTokenId',
    'UnrecognizedClientException',
    // The SDK's own, before any request: no credentials anywhere in its chain.
    'CredentialsProviderError',
  ],
  clockSkew: ['RequestTimeTooSkewed', 'RequestExpired', 'RequestInTheFuture'],
  unreachable: [
    'SlowDown',
    'ServiceUnavailable',
    'InternalError',
    'RequestTimeout',
    'TimeoutError',
    'Throttling',
    'ThrottlingException',
    'RequestThrottled',
    'TooManyRequestsException',
    'BandwidthLimitExceeded',
  ],
} as const satisfies Record<string, readonly string[]>;

/** Socket failures: the endpoint's host has no address, refuses, or the connection broke. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
]);

const CREDENTIALS_HINT =
  'check the AWS credentials docsync runs with (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or the role of its service account) and their access to the bucket';

interface SdkErrorShape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

export function classifyS3Error(
  error: unknown,
  context: { bucket: string; operation: S3Operation },
): ArtifactStorageError {
  if (error instanceof ArtifactStorageError) return error;
  const shape = (typeof error === 'object' && error !== null ? error : {}) as SdkErrorShape;
  const name = typeof shape.name === 'string' ? shape.name : undefined;
  const system = typeof shape.code === 'string' ? shape.code : undefined;
  const status =
    typeof shape.$metadata?.httpStatusCode === 'number' ? shape.$metadata.httpStatusCode : undefined;
  const { bucket, operation } = context;
  const said = [
    name === 'Error' ? undefined : name,
    system,
    status === undefined ? undefined : `HTTP ${status}`,
  ]
    .filter((part) => part !== undefined)
    .join(', ');
  const make = (code: ArtifactStorageErrorCode, message: string) =>
    new ArtifactStorageError(code, `${message}${said === '' ? '' : ` (${said})`}`, {
      httpStatus: status,
      storageCode: name === 'Error' ? system : (name ?? system),
      cause: error,
    });
  const is = (names: readonly string[]) => name !== undefined && names.includes(name);

  if (is(S3_ERROR_NAMES.bucketMissing))
    return make(
      'ARTIFACT_BUCKET_MISSING',
      `the bucket ${bucket} does not exist: check artifacts.s3.bucket (and artifacts.s3.endpoint, artifacts.s3.region)`,
    );
  if (is(S3_ERROR_NAMES.clockSkew))
    return make(
      'ARTIFACT_CLOCK_SKEW',
      `the object storage refused to let docsync ${operation} bucket ${bucket}: this machine's clock is too far from the store's; set it right (NTP)`,
    );
  if (name === 'CredentialsProviderError')
    return make(
      'ARTIFACT_STORAGE_REFUSED',
      `no AWS credentials were found to ${operation} bucket ${bucket}: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or a web identity (AWS_ROLE_ARN, AWS_WEB_IDENTITY_TOKEN_FILE)`,
    );
  if (is(S3_ERROR_NAMES.refused) || status === 401 || status === 403)
    return make(
      'ARTIFACT_STORAGE_REFUSED',
      `the object storage refused docsync's credentials to ${operation} bucket ${bucket}: ${CREDENTIALS_HINT}`,
    );
  if (
    is(S3_ERROR_NAMES.unreachable) ||
    (system !== undefined && NETWORK_CODES.has(system)) ||
    status === 429 ||
    (status !== undefined && status >= 500)
  )
    return make(
      'ARTIFACT_STORAGE_UNREACHABLE',
      `the object storage could not be reached or failed to ${operation} bucket ${bucket}: docsync tries again; check artifacts.s3.endpoint and that the store runs`,
    );
  if (typeof shape.message === 'string' && /region is missing/i.test(shape.message))
    return make(
      'ARTIFACT_STORAGE_FAILED',
      `no region is set for artifacts.s3: set artifacts.s3.region (or AWS_REGION)`,
    );
  if (name === 'PermanentRedirect' || name === 'AuthorizationHeaderMalformed')
    return make(
      'ARTIFACT_STORAGE_FAILED',
      `the bucket ${bucket} is in another region: check artifacts.s3.region (and artifacts.s3.endpoint)`,
    );
  return make(
    'ARTIFACT_STORAGE_FAILED',
    `the object storage refused to let docsync ${operation} bucket ${bucket}`,
  );
}
