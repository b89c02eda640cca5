// What to fix when the object storage of `artifacts.s3` refused or failed an import's bundle, for
// /status and `docsync status`: the setting by its key, or the AWS credential variables.
import type { ArtifactStorageError } from './artifact-storage-error.js';

export function artifactStorageHint(error: ArtifactStorageError): string {
  switch (error.code) {
    case 'ARTIFACT_BUCKET_MISSING':
      return 'the bucket does not exist where docsync looks: check artifacts.s3.bucket, and artifacts.s3.endpoint and artifacts.s3.region for the store it is in';
    case 'ARTIFACT_STORAGE_REFUSED':
      return error.storageCode === 'CredentialsProviderError'
        ? 'docsync found no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or a web identity (AWS_ROLE_ARN, AWS_WEB_IDENTITY_TOKEN_FILE) for artifacts.s3'
        : 'the object storage refused the credentials: check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_SESSION_TOKEN, the role of the service account) and their right to write and delete in artifacts.s3.bucket';
    case 'ARTIFACT_CLOCK_SKEW':
      return "this machine's clock is too far from the object storage's: set it right (NTP); requests are signed with the time";
    case 'ARTIFACT_STORAGE_UNREACHABLE':
      return 'the object storage does not answer or fails: docsync tries again; check artifacts.s3.endpoint (or artifacts.s3.region for AWS) and that the store runs';
    case 'ARTIFACT_STORAGE_FAILED':
      return 'the object storage refused the request: its message names the setting (artifacts.s3.region, artifacts.s3.endpoint, artifacts.s3.forcePathStyle)';
  }
}
