import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import type { S3ClientOverrides } from '../../../src/artifacts/s3-sdk.js';
import { artifactsSchema } from '../../../src/config/artifacts-schema.js';
import { checkArtifactStorage } from '../../../src/doctor/artifacts-check.js';
import { CheckRunner } from '../../../src/doctor/check-runner.js';
import { S3RVER_CREDENTIALS, startS3Server } from '../../support/s3-server.js';

const BUCKET = 'docsync-bundles';

describe('docsync doctor: the bucket of artifacts.s3', async () => {
  const server = await startS3Server([BUCKET]);
  const runner = new CheckRunner({ timeoutMs: 10_000, concurrency: 2 });

  function check(bucket: string, client: S3ClientOverrides = { credentials: S3RVER_CREDENTIALS }) {
    const { s3 } = artifactsSchema.parse({
      s3: { bucket, prefix: 'doctor/', region: 'us-east-1', endpoint: server.endpoint, forcePathStyle: true },
    });
    const finding = checkArtifactStorage({ s3, runner, client });
    if (finding === undefined) throw new Error('no check for artifacts.s3');
    return finding;
  }

  it('finds a bucket docsync may write and delete in, and leaves no probe behind', async () => {
    expect(await check(BUCKET)).toMatchObject({ check: 'artifacts', subject: BUCKET, status: 'ok' });
    const listed = await server.client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'doctor/' }));
    expect(listed.Contents ?? []).toEqual([]);
  });

  it('fails a bucket that does not exist, naming artifacts.s3.bucket', async () => {
    expect(await check('no-such-bucket')).toMatchObject({
      status: 'fail',
      code: 'ARTIFACT_BUCKET_MISSING',
      hint: expect.stringContaining('artifacts.s3.bucket'),
    });
  });

  it('fails refused credentials, naming the AWS variables', async () => {
    const finding = await check(BUCKET, { credentials: { accessKeyId: 'WRONG', secretAccessKey: 'wrong' } });
    expect(finding).toMatchObject({
      status: 'fail',
      code: 'ARTIFACT_STORAGE_REFUSED',
      hint: expect.stringContaining('AWS_SECRET_ACCESS_KEY'),
    });
  });

  it('checks nothing when bundles stay in the data folder', () => {
    expect(checkArtifactStorage({ s3: undefined, runner })).toBeUndefined();
  });
});
