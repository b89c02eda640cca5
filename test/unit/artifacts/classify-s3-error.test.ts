import { NoSuchBucket, S3ServiceException } from '@aws-sdk/client-s3';
import { CredentialsProviderError } from '@smithy/core/config';
import { describe, expect, it } from 'vitest';
import { artifactStorageHint } from '../../../src/artifacts/artifact-storage-hint.js';
import { classifyS3Error } from '../../../src/artifacts/classify-s3-error.js';
import { failureHint } from '../../../src/state/failure-hint.js';

const context = { bucket: 'docsync-bundles', operation: 'upload the bundle to' } as const;

/** An error as the SDK throws one for an S3 answer it has no class for: named by S3's `Code`. */
function answered(name: string, httpStatusCode: number, fault: 'client' | 'server' = 'client') {
  return new S3ServiceException({ name, $fault: fault, $metadata: { httpStatusCode }, message: name });
}

/** A socket failure as the SDK's HTTP handler passes it on. */
function socket(code: string): Error {
  return Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code });
}

describe('classifyS3Error', () => {
  it('tells a bucket that does not exist, naming artifacts.s3.bucket', () => {
    const error = classifyS3Error(
      new NoSuchBucket({
        $metadata: { httpStatusCode: 404 },
        message: 'The specified bucket does not exist',
      }),
      context,
    );
    expect(error).toMatchObject({ code: 'ARTIFACT_BUCKET_MISSING', retryable: false, httpStatus: 404 });
    expect(error.message).toContain('docsync-bundles');
    expect(error.message).toContain('artifacts.s3.bucket');
    expect(failureHint(error)).toContain('artifacts.s3.bucket');
  });

  it.each([
    ['InvalidAccessKeyId', 403],
    ['SignatureDoesNotMatch', 403],
    ['AccessDenied', 403],
    ['ExpiredToken', 400],
    ['InvalidToken', 400],
    ['Forbidden', 403],
  ])('tells refused credentials (%s) as such, naming the AWS variables', (name, status) => {
    const error = classifyS3Error(answered(name, status), context);
    expect(error).toMatchObject({ code: 'ARTIFACT_STORAGE_REFUSED', retryable: false, storageCode: name });
    expect(artifactStorageHint(error)).toContain('AWS_ACCESS_KEY_ID');
  });

  it('tells credentials found nowhere in the chain apart from refused ones', () => {
    const error = classifyS3Error(
      new CredentialsProviderError('Could not load credentials from any providers'),
      context,
    );
    expect(error).toMatchObject({
      code: 'ARTIFACT_STORAGE_REFUSED',
      storageCode: 'CredentialsProviderError',
    });
    expect(error.message).toContain('no AWS credentials were found');
    expect(failureHint(error)).toContain('AWS_WEB_IDENTITY_TOKEN_FILE');
  });

  it.each(['RequestTimeTooSkewed', 'RequestExpired', 'RequestInTheFuture'])(
    'tells a clock the store refuses (%s)',
    (name) => {
      const error = classifyS3Error(answered(name, 403), context);
      expect(error).toMatchObject({ code: 'ARTIFACT_CLOCK_SKEW', retryable: false });
      expect(failureHint(error)).toContain('clock');
    },
  );

  it.each([
    ['a 503 SlowDown', answered('SlowDown', 503, 'server')],
    ['a 500', answered('InternalError', 500, 'server')],
    ['a 429 without a name it knows', answered('Whatever', 429)],
    ['a refused connection', socket('ECONNREFUSED')],
    ['a host without an address', socket('ENOTFOUND')],
    ['a timeout', Object.assign(new Error('socket timed out'), { name: 'TimeoutError' })],
  ])('retries %s as an unreachable store, naming artifacts.s3.endpoint', (_label, cause) => {
    const error = classifyS3Error(cause, context);
    expect(error).toMatchObject({ code: 'ARTIFACT_STORAGE_UNREACHABLE', retryable: true });
    expect(failureHint(error)).toContain('artifacts.s3.endpoint');
    // Not `status`: the job runner pauses a whole queue for an error whose status is 429.
    expect(error).not.toHaveProperty('status');
  });

  it('names the region when the SDK has none, and other refusals by their code', () => {
    expect(classifyS3Error(new Error('Region is missing'), context)).toMatchObject({
      code: 'ARTIFACT_STORAGE_FAILED',
      message: expect.stringContaining('artifacts.s3.region'),
    });
    expect(classifyS3Error(answered('PermanentRedirect', 301), context).message).toContain(
      'artifacts.s3.region',
    );
    expect(classifyS3Error(answered('InvalidArgument', 400), context)).toMatchObject({
      code: 'ARTIFACT_STORAGE_FAILED',
      retryable: false,
      message: expect.stringContaining('InvalidArgument, HTTP 400'),
    });
  });
});
