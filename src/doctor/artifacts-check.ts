// The bucket of `artifacts.s3`: that it exists and that docsync's credentials may write and delete
// in it, checked the way an import uses it (a small probe object put under the prefix, then
// deleted), so that a missing bucket, refused keys or a skewed clock show before the first import.

import { newArtifactId } from '../artifacts/artifact-signature.js';
import { artifactStorageHint } from '../artifacts/artifact-storage-hint.js';
import { classifyS3Error } from '../artifacts/classify-s3-error.js';
import { bundleKey } from '../artifacts/s3-bundle-keys.js';
import type { S3ClientOverrides } from '../artifacts/s3-sdk.js';
import type { S3ArtifactsConfig } from '../config/artifacts-schema.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import { type CheckRunner, CheckTimeoutError } from './check-runner.js';
import { describeFailure } from './describe-failure.js';
import { type Finding, failed, ok } from './doctor-finding.js';

export interface ArtifactsCheckInput {
  s3: S3ArtifactsConfig | undefined;
  runner: CheckRunner;
  /** Tests only: static credentials in place of the SDK's chain. */
  client?: S3ClientOverrides;
}

/** Undefined when bundles stay in the data folder (no artifacts.s3). */
export function checkArtifactStorage(input: ArtifactsCheckInput): Promise<Finding> | undefined {
  const { s3, runner } = input;
  if (s3 === undefined) return undefined;
  return (async () => {
    const attempt = await runner.attempt(async (signal) => {
      const { s3Sdk } = await import('../artifacts/s3-sdk.js');
      const { client, commands } = s3Sdk(s3, input.client);
      // Named as a bundle: a probe whose delete was refused is swept as a bundle left by a crash.
      const target = { Bucket: s3.bucket, Key: bundleKey(s3.prefix, newArtifactId()) };
      try {
        await client.send(new commands.PutObjectCommand({ ...target, Body: 'docsync doctor' }), {
          abortSignal: signal,
        });
        await client.send(new commands.DeleteObjectCommand(target), { abortSignal: signal });
      } finally {
        client.destroy();
      }
    });
    const where = s3.endpoint === undefined ? 'AWS S3' : redactUrlCredentials(s3.endpoint);
    if (attempt.ok)
      return ok('artifacts', s3.bucket, `bucket ${s3.bucket} at ${where} takes and deletes bundles`);
    if (attempt.error instanceof CheckTimeoutError)
      return failed('artifacts', s3.bucket, {
        code: 'CHECK_TIMEOUT',
        message: `bucket ${s3.bucket} at ${where}: ${describeFailure(attempt.error)}`,
        hint: 'check artifacts.s3.endpoint (or artifacts.s3.region) and that the store answers',
      });
    const error = classifyS3Error(attempt.error, { bucket: s3.bucket, operation: 'write to' });
    return failed('artifacts', s3.bucket, {
      code: error.code,
      message: error.message,
      hint: artifactStorageHint(error),
    });
  })();
}
