// The AWS SDK's parts docsync uses for `artifacts.s3`, loaded on first use: the SDK is the largest
// dependency docsync has, and neither the default store, `docsync --help` nor a daemon without
// `artifacts.s3` should read it. Credentials come from the SDK's own chain (environment, shared
// files, web identity); docsync's configuration never holds them.
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3ArtifactsConfig } from '../config/artifacts-schema.js';

export type S3Commands = Pick<
  typeof import('@aws-sdk/client-s3'),
  'PutObjectCommand' | 'GetObjectCommand' | 'DeleteObjectCommand' | 'ListObjectsV2Command'
>;

export interface S3Sdk {
  client: S3Client;
  commands: S3Commands;
  Upload: typeof import('@aws-sdk/lib-storage').Upload;
  getSignedUrl: typeof import('@aws-sdk/s3-request-presigner').getSignedUrl;
}

/** What only tests set: static credentials in place of the chain, a clock offset, no retries. */
export interface S3ClientOverrides {
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  systemClockOffset?: number;
  maxAttempts?: number;
}

export async function loadS3Sdk(
  config: S3ArtifactsConfig,
  overrides: S3ClientOverrides = {},
): Promise<S3Sdk> {
  const [s3, storage, presigner] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  const client = new s3.S3Client({
    ...(config.region === undefined ? {} : { region: config.region }),
    ...(config.endpoint === undefined
      ? {}
      : {
          endpoint: config.endpoint,
          // The checksums the SDK adds by default (a trailer of a chunked upload) are what
          // S3-compatible stores most often refuse or store wrongly; a zip checks its own content.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }),
    forcePathStyle: config.forcePathStyle,
    ...overrides,
  });
  const { PutObjectCommand, GetObjectCommand, DeleteObjectCommand, ListObjectsV2Command } = s3;
  return {
    client,
    commands: { PutObjectCommand, GetObjectCommand, DeleteObjectCommand, ListObjectsV2Command },
    Upload: storage.Upload,
    getSignedUrl: presigner.getSignedUrl,
  };
}
