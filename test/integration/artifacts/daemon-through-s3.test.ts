// The daemon's import job with artifacts.s3: through the bucket while http.publicUrl points nowhere,
// and a refusal of the store recorded as the mapping's failure, with its code and the setting to fix
// (what /status, the status page and `docsync status` show).
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { closeAfter } from '../../support/close-after.js';
import { createTestRepo } from '../../support/git-repos.js';
import { S3RVER_CREDENTIALS, startS3Server } from '../../support/s3-server.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { requestCounts } from '../../support/test-api-client.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const BUCKET = 'docsync-bundles';
const IMPORT_ROUTE = 'POST /v1/spaces/:s/change-requests/:cr/content/import';

// The SDK reads its credentials from the process's environment (its standard chain), as in
// production: this test file's worker gets s3rver's keys, and loses them again after the file.
const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId;
process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey;
closeAfter(() => {
  for (const [name, value] of [
    ['AWS_ACCESS_KEY_ID', saved.id],
    ['AWS_SECRET_ACCESS_KEY', saved.secret],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('the daemon with artifacts.s3', async () => {
  const s3 = await startS3Server([BUCKET]);
  const emulator = await startTestEmulator();
  const { client } = s3;

  async function setUp(label: string, bucket: string) {
    const space = await createTestSpace(emulator, 'Bucket docs');
    const repo = await createTestRepo();
    await repo.commit({ 'docs/README.md': '# Bucket docs\n' }, 'Docs');
    await repo.push();
    const prefix = uniquePrefix(`daemon-s3-${label}`);
    const yaml = `  publicUrl: "http://127.0.0.1:9/"
artifacts:
  s3: { bucket: ${bucket}, prefix: ${label}/, region: us-east-1, endpoint: "${s3.endpoint}", forcePathStyle: true }
mappings:
  - { name: docs, space: ${space}, git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s } }
`;
    await startTestDaemon({ prefix, jobs: JOBS, service: emulator, yaml });
    const state = new RedisMappingStateStore(testRedis(prefix), prefix);
    return { state, sha: await repo.git('rev-parse', 'HEAD') };
  }

  it('imports a commit through the bucket, and leaves no object behind', async () => {
    const { state, sha } = await setUp('imported', BUCKET);
    await waitFor(
      async () => ((await state.get('docs')).lastImportedSha === sha ? true : undefined),
      'the import',
    );
    // The object goes once the import is recorded (the job's last step): waited for, not assumed.
    const objects = async () =>
      (await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'imported/' }))).Contents ?? [];
    await waitFor(async () => ((await objects()).length === 0 ? true : undefined), 'the object deleted');
    expect(
      s3.requests.some(
        (request) => request.method === 'DELETE' && request.url.startsWith(`/${BUCKET}/imported/`),
      ),
    ).toBe(true);
  });

  it('records a bucket that does not exist as the mapping failure, with the setting to fix, and imports nothing', async () => {
    const before = (await requestCounts(emulator)).counts[IMPORT_ROUTE] ?? 0;
    const { state } = await setUp('missing', 'no-such-bucket');
    const failure = await waitFor(async () => (await state.get('docs')).lastError, 'the failure');
    expect(failure).toMatchObject({
      code: 'ARTIFACT_BUCKET_MISSING',
      message: expect.stringContaining('no-such-bucket'),
      hint: expect.stringContaining('artifacts.s3.bucket'),
    });
    expect((await requestCounts(emulator)).counts[IMPORT_ROUTE] ?? 0).toBe(before);
  });
});
