// Bundles in an S3-compatible bucket (`artifacts.s3`): written locally, uploaded at publication (in
// parts past `partSize`), and handed to the service as a presigned GET address that expires after
// `expires`, so that a service outside the company's network fetches them without reaching any
// docsync process. The local file goes once uploaded, the object once imported; the sweep removes
// what a crash left behind, in the bucket and on disk, once its address has expired.
import { createReadStream } from 'node:fs';
import type { S3ArtifactsConfig } from '../config/artifacts-schema.js';
import type { Logger } from '../log/create-logger.js';
import type { BundleStore, ReservedArtifact } from './bundle-store.js';
import { classifyS3Error, type S3Operation } from './classify-s3-error.js';
import { LocalBundleFiles } from './local-bundle-files.js';
import { bundleKey, expiredBundleKeys } from './s3-bundle-keys.js';
import type { S3ClientOverrides, S3Sdk } from './s3-sdk.js';
import { SweepSchedule } from './sweep-schedule.js';

export interface S3ArtifactStoreOptions {
  /** Where bundles are written before their upload, such as `<dataDir>/artifacts`. */
  dir: string;
  s3: S3ArtifactsConfig;
  log: Logger;
  now?: () => number;
  /** How often `start()` sweeps. */
  sweepEveryMs?: number;
  /** Tests only: static credentials, a clock offset, attempts; the SDK's chain and defaults otherwise. */
  client?: S3ClientOverrides;
}

const DEFAULT_SWEEP_EVERY_MS = 5 * 60_000;
/** Parts uploaded at once: at most this many times partSize of a bundle is held in memory. */
const UPLOAD_QUEUE_SIZE = 4;

export class S3ArtifactStore implements BundleStore {
  readonly #files: LocalBundleFiles;
  readonly #s3: S3ArtifactsConfig;
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #schedule: SweepSchedule;
  readonly #overrides: S3ClientOverrides;
  /** Ids whose object is in the bucket: `remove()` deletes those. */
  readonly #uploaded = new Set<string>();
  #sdk: Promise<S3Sdk> | undefined;

  constructor(options: S3ArtifactStoreOptions) {
    this.#files = new LocalBundleFiles(options.dir);
    this.#s3 = options.s3;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
    this.#schedule = new SweepSchedule({
      sweepOnce: () => this.#sweepOnce(),
      everyMs: options.sweepEveryMs ?? DEFAULT_SWEEP_EVERY_MS,
      onError: (error) => this.#log.warn({ err: error, bucket: this.#s3.bucket }, 'artifact sweep failed'),
    });
    this.#overrides = options.client ?? {};
  }

  reserve(): ReservedArtifact {
    return this.#files.reserve();
  }

  /** Uploads the written bundle, deletes its file, and returns its presigned address. */
  async publish(id: string): Promise<string> {
    const path = this.#files.pathOf(id);
    const key = bundleKey(this.#s3.prefix, id);
    const sdk = await this.#sdkOnce();
    const upload = new sdk.Upload({
      client: sdk.client,
      params: {
        Bucket: this.#s3.bucket,
        Key: key,
        Body: createReadStream(path),
        ContentType: 'application/zip',
      },
      partSize: this.#s3.partSize,
      queueSize: UPLOAD_QUEUE_SIZE,
      // A failed multipart upload is aborted: no parts stay behind to be paid for.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      throw this.#classified(error, 'upload the bundle to');
    }
    this.#uploaded.add(id);
    await this.#files.remove(id);
    const command = new sdk.commands.GetObjectCommand({ Bucket: this.#s3.bucket, Key: key });
    const url = await sdk
      .getSignedUrl(sdk.client, command, { expiresIn: Math.floor(this.#s3.expires / 1000) })
      .catch((error: unknown) => {
        throw this.#classified(error, 'upload the bundle to');
      });
    const expiresAt = new Date(this.#now() + this.#s3.expires).toISOString();
    this.#log.debug({ artifact: id, bucket: this.#s3.bucket, key, expiresAt }, 'artifact uploaded');
    return url;
  }

  /**
   * Deletes the bundle's file and its object. Never throws for the object: this runs after the
   * import, whose own outcome must stand; an object left behind is swept once expired.
   */
  async remove(id: string): Promise<void> {
    await this.#files.remove(id);
    if (!this.#uploaded.delete(id)) return;
    const key = bundleKey(this.#s3.prefix, id);
    try {
      const sdk = await this.#sdkOnce();
      await sdk.client.send(new sdk.commands.DeleteObjectCommand({ Bucket: this.#s3.bucket, Key: key }));
      this.#log.debug({ artifact: id, key }, 'artifact removed');
    } catch (error) {
      const failure = this.#classified(error, 'delete a bundle from');
      this.#log.warn(
        { artifact: id, key, err: failure },
        'artifact object not removed: the sweep removes it once expired',
      );
    }
  }

  /** Deletes the bundles whose address has expired, in the bucket and on disk; returns how many went. */
  sweep(): Promise<number> {
    return this.#schedule.sweep();
  }

  start(): void {
    this.#schedule.start();
  }

  async close(): Promise<void> {
    await this.#schedule.close();
    const sdk = await this.#sdk?.catch(() => undefined);
    sdk?.client.destroy();
  }

  #sdkOnce(): Promise<S3Sdk> {
    // Loaded here, on first use: see s3-sdk.ts.
    this.#sdk ??= import('./s3-sdk.js').then(({ s3Sdk }) => s3Sdk(this.#s3, this.#overrides));
    return this.#sdk;
  }

  #classified(error: unknown, operation: S3Operation) {
    return classifyS3Error(error, { bucket: this.#s3.bucket, operation });
  }

  async #sweepOnce(): Promise<number> {
    const nowMs = this.#now();
    let removed = await this.#files.sweep(this.#s3.expires, nowMs);
    const sdk = await this.#sdkOnce();
    const { bucket, prefix } = this.#s3;
    let token: string | undefined;
    try {
      do {
        const page = await sdk.client.send(
          new sdk.commands.ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            ...(token === undefined ? {} : { ContinuationToken: token }),
          }),
        );
        for (const key of expiredBundleKeys(page.Contents ?? [], prefix, this.#s3.expires, nowMs)) {
          await sdk.client.send(new sdk.commands.DeleteObjectCommand({ Bucket: bucket, Key: key }));
          removed += 1;
        }
        token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
    } catch (error) {
      throw this.#classified(error, 'list the objects of');
    }
    if (removed > 0) this.#log.info({ removed, bucket }, 'expired artifacts removed');
    return removed;
  }
}
