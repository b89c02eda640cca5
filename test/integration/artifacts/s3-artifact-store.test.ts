import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { S3ArtifactStore } from '../../../src/artifacts/s3-artifact-store.js';
import { bundleKey } from '../../../src/artifacts/s3-bundle-keys.js';
import type { S3ClientOverrides } from '../../../src/artifacts/s3-sdk.js';
import { artifactsSchema } from '../../../src/config/artifacts-schema.js';
import { closeAfter } from '../../support/close-after.js';
import { S3RVER_CREDENTIALS, startS3Server } from '../../support/s3-server.js';
import { captureLog, tempDir } from '../../support/test-context.js';

const BUCKET = 'docsync-bundles';
const MIB = 1024 * 1024;

describe('bundles in an S3-compatible bucket', async () => {
  const s3 = await startS3Server([BUCKET]);

  async function testStore(
    label: string,
    options: {
      bucket?: string;
      endpoint?: string;
      partSize?: string;
      now?: () => number;
      client?: S3ClientOverrides;
    } = {},
  ) {
    const dir = join(await tempDir(label), 'artifacts');
    const { log, lines } = captureLog();
    const config = artifactsSchema.parse({
      s3: {
        bucket: options.bucket ?? BUCKET,
        prefix: `${label}/`,
        region: 'us-east-1',
        endpoint: options.endpoint ?? s3.endpoint,
        forcePathStyle: true,
        expires: '15m',
        ...(options.partSize === undefined ? {} : { partSize: options.partSize }),
      },
    }).s3;
    if (config === undefined) throw new Error('artifacts.s3 not read');
    const store = new S3ArtifactStore({
      dir,
      s3: config,
      log,
      ...(options.now === undefined ? {} : { now: options.now }),
      client: { credentials: S3RVER_CREDENTIALS, ...options.client },
    });
    closeAfter(() => store.close());
    const written = async (bytes: Buffer) => {
      const reserved = store.reserve();
      await writeFile(reserved.path, bytes);
      return reserved;
    };
    return { store, lines, written, prefix: config.prefix };
  }

  const sha = (bytes: Buffer | ArrayBuffer) =>
    createHash('sha256')
      .update(Buffer.from(bytes as ArrayBuffer))
      .digest('hex');

  it('uploads a bundle, hands over a presigned address that serves it, and deletes it once removed', async () => {
    const { store, written } = await testStore('publish');
    const bytes = randomBytes(2048);
    const { id, path } = await written(bytes);
    const url = await store.publish(id);
    expect(existsSync(path)).toBe(false);
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('900');
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(sha(await fetched.arrayBuffer())).toBe(sha(bytes));
    await store.remove(id);
    expect((await fetch(url)).status).toBe(404);
  });

  it('uploads a bundle over partSize in parts, as the server received them', async () => {
    const { store, written } = await testStore('multipart', { partSize: '5MiB' });
    const bytes = randomBytes(11 * MIB);
    const { id } = await written(bytes);
    const before = s3.requests.length;
    const url = await store.publish(id);
    const key = `/${BUCKET}/${bundleKey('multipart/', id)}`;
    const received = s3.requests.slice(before).filter((request) => request.url.startsWith(key));
    const parts = received.filter(
      (request) => request.method === 'PUT' && /[?&]partNumber=\d/.test(request.url),
    );
    expect(
      received.some((request) => request.method === 'POST' && /[?&]uploads(=|&|$)/.test(request.url)),
    ).toBe(true);
    expect(parts).toHaveLength(3);
    expect(received.some((request) => request.method === 'POST' && /[?&]uploadId=/.test(request.url))).toBe(
      true,
    );
    expect(sha(await (await fetch(url)).arrayBuffer())).toBe(sha(bytes));
    await store.remove(id);
  });

  it('sweeps an object left behind once its address expired, and keeps a fresh one', async () => {
    const now = Date.now();
    const { store, written, prefix, lines } = await testStore('sweep', { now: () => now });
    const hourAgo = new Date(now - 60 * 60_000);
    const old = await written(randomBytes(64));
    await store.publish(old.id);
    const fresh = await written(randomBytes(64));
    const freshUrl = await store.publish(fresh.id);
    // A crash after the upload: the object stays, an hour old by now.
    await s3.backdate(BUCKET, bundleKey(prefix, old.id), hourAgo);
    // Bundles written but never uploaded, left on disk by crashes: one an hour ago, one now.
    const stranded = await written(randomBytes(64));
    await utimes(stranded.path, hourAgo, hourAgo);
    const writing = await written(randomBytes(64));
    expect(await store.sweep()).toBe(2);
    expect(existsSync(stranded.path)).toBe(false);
    expect(existsSync(writing.path)).toBe(true);
    expect((await fetch(freshUrl)).status).toBe(200);
    const deleted = s3.requests.filter(
      (request) => request.method === 'DELETE' && request.url.startsWith(`/${BUCKET}/${prefix}`),
    );
    expect(deleted.map((request) => request.url.split('?')[0])).toEqual([
      `/${BUCKET}/${bundleKey(prefix, old.id)}`,
    ]);
    expect(lines.some((line) => line.msg === 'expired artifacts removed' && line.removed === 2)).toBe(true);
  });

  it('refuses a bucket that does not exist, naming the setting, and leaves no file behind', async () => {
    const { store, written } = await testStore('no-bucket', { bucket: 'no-such-bucket' });
    const { id, path } = await written(randomBytes(64));
    const failure = store.publish(id);
    await expect(failure).rejects.toMatchObject({
      code: 'ARTIFACT_BUCKET_MISSING',
      retryable: false,
      httpStatus: 404,
      message: expect.stringContaining('artifacts.s3.bucket'),
    });
    await store.remove(id);
    expect(existsSync(path)).toBe(false);
  });

  it('refuses wrong credentials as such, naming the variables to check', async () => {
    const { store, written } = await testStore('wrong-keys', {
      client: { credentials: { accessKeyId: 'WRONG', secretAccessKey: 'WRONG' } },
    });
    const { id } = await written(randomBytes(64));
    await expect(store.publish(id)).rejects.toMatchObject({
      code: 'ARTIFACT_STORAGE_REFUSED',
      storageCode: 'InvalidAccessKeyId',
      message: expect.stringContaining('AWS_ACCESS_KEY_ID'),
    });
  });

  it('tells a clock the store finds too far off from other refusals', async () => {
    // An hour behind, and no retry: the SDK would otherwise correct its offset from the answer.
    const { store, written } = await testStore('skew', {
      client: { systemClockOffset: -60 * 60_000, maxAttempts: 1 },
    });
    const { id } = await written(randomBytes(64));
    await expect(store.publish(id)).rejects.toMatchObject({
      code: 'ARTIFACT_CLOCK_SKEW',
      storageCode: 'RequestTimeTooSkewed',
    });
  });

  it('tells an endpoint nobody answers at as unreachable, to be retried', async () => {
    const { store, written } = await testStore('unreachable', {
      endpoint: 'http://127.0.0.1:9',
      client: { maxAttempts: 1 },
    });
    const { id } = await written(randomBytes(64));
    await expect(store.publish(id)).rejects.toMatchObject({
      code: 'ARTIFACT_STORAGE_UNREACHABLE',
      retryable: true,
      storageCode: 'ECONNREFUSED',
      message: expect.stringContaining('artifacts.s3.endpoint'),
    });
  });
});
