// `artifacts`: where import bundles wait for the documentation service to fetch them. By default in
// docsync's data folder, served by its HTTP server (`http.publicUrl`); with `s3`, in a bucket of any
// S3-compatible store, handed over as a presigned address, so that a service outside the company's
// network fetches them without reaching any docsync process. Credentials come from the AWS SDK's
// own chain (environment, shared files, web identity), never from this file.
import { z } from 'zod';
import { byteSize } from './byte-size.js';
import { DAY, durationMs, MINUTE } from './duration.js';

const MIB = 1024 * 1024;

/** S3's own limits: parts of 5 MiB to 5 GiB; a presigned address lives at most 7 days (SigV4). */
const s3Schema = z.strictObject({
  bucket: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'an S3 bucket name: 3 to 63 lower-case letters, digits, . and -, such as docsync-bundles',
    ),
  /** Prepended to every object's key; `imports/` puts them in a folder of the bucket. */
  prefix: z
    .string()
    .max(512)
    .regex(/^(?!\/)[^\\\0]*$/, 'a key prefix such as imports/, without a leading / or a backslash')
    .default('docsync/'),
  /** The SDK's chain (AWS_REGION, the shared config file) when absent. */
  region: z.string().min(1).optional(),
  /** An S3-compatible store (MinIO, R2, GCS): its address. AWS's own when absent. */
  endpoint: z.url({ protocol: /^https?$/, error: 'artifacts.s3.endpoint must be an http(s) URL' }).optional(),
  /** Bucket in the path (`host/bucket/key`), as MinIO and most self-hosted stores want. */
  forcePathStyle: z.boolean().default(false),
  /** How long the address handed to the service stays valid; objects older than this are swept. */
  expires: durationMs({ min: MINUTE, max: 7 * DAY }).default(15 * MINUTE),
  /** Bundles larger than this are uploaded in parts of this size. */
  partSize: byteSize({ min: 5 * MIB, max: 5 * 1024 * MIB }).default(8 * MIB),
});

export type S3ArtifactsConfig = z.output<typeof s3Schema>;

export const artifactsSchema = z.strictObject({ s3: s3Schema.optional() });
