// The AWS SDK's parts docsync uses for `artifacts.s3`. Only ever imported with `import()`, by the
// S3 store when it first needs the bucket: the SDK is the largest dependency docsync has, and
// neither the default store, `docsync --help` nor a daemon without `artifacts.s3` should read it.
// Credentials come from the SDK's own chain (environment, shared files, web identity); docsync's
// configuration never holds them.
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3ArtifactsConfig } from '../config/artifacts-schema.js';

const COMMANDS = { PutObjectCommand, GetObjectCommand, DeleteObjectCommand, ListObjectsV2Command };

export interface S3Sdk {
  client: S3Client;
  commands: typeof COMMANDS;
  Upload: typeof Upload;
  getSignedUrl: typeof getSignedUrl;
}

/** What only tests set: static credentials in place of the chain, a clock offset, no retries. */
export interface S3ClientOverrides {
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  systemClockOffset?: number;
  maxAttempts?: number;
}

export function s3Sdk(config: S3ArtifactsConfig, overrides: S3ClientOverrides = {}): S3Sdk {
  // The SDK warns once, on stderr and outside docsync's JSON logs, that its releases after January
  // 2027 need Node 22: the version docsync locks runs on Node 20, and no operator can act on it
  // there. Its own switch, unless the operator set it either way.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const client = new S3Client({
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
  return { client, commands: COMMANDS, Upload, getSignedUrl };
}
