import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../../support/cli-process.js';
import { createTestRepo } from '../../support/git-repos.js';
import { S3RVER_CREDENTIALS, startS3Server } from '../../support/s3-server.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { tempDir } from '../../support/test-context.js';

const BUCKET = 'docsync-bundles';
/** Where nothing listens: the service could never fetch a bundle from docsync itself. */
const NOWHERE = 'http://127.0.0.1:9/';

describe('docsync once with artifacts.s3', async () => {
  const s3 = await startS3Server([BUCKET]);
  /** The addresses the service was asked to import from. */
  const imports: string[] = [];
  const emulator = await startTestEmulator({
    prepare: ({ app }) => {
      app.addHook('preHandler', async (request) => {
        if (request.method === 'POST' && /\/content\/import$/.test(request.url))
          imports.push(String((request.body as { url?: unknown } | undefined)?.url));
      });
    },
  });
  const { client } = s3;

  async function setUp(label: string, bucket = BUCKET) {
    const space = await createTestSpace(emulator, 'Bucket docs');
    const repo = await createTestRepo();
    await repo.commit({ 'docs/README.md': '# Bucket docs\n', 'docs/setup.md': '# Setup\n' }, 'Docs');
    await repo.push();
    const dir = await tempDir(`once-s3-${label}`);
    const config = join(dir, 'docsync.yaml');
    await writeFile(
      config,
      `dataDir: ${join(dir, 'data')}
http: { listen: "127.0.0.1:0", publicUrl: "${NOWHERE}" }
service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }
artifacts:
  s3: { bucket: ${bucket}, prefix: ${label}/, region: us-east-1, endpoint: "${s3.endpoint}", forcePathStyle: true, expires: 5m }
mappings:
  - { name: bucket-docs, space: ${space}, git: { repo: ${repo.remote}, branch: main, dir: docs } }
`,
    );
    const once = (credentials: { accessKeyId: string; secretAccessKey: string }) =>
      runCli(['once', '--config', config, '--ref', 'HEAD', '--json', '--public-url', NOWHERE], {
        cwd: repo.work,
        env: cliEnv({
          AWS_ACCESS_KEY_ID: credentials.accessKeyId,
          AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
          // No profile of the machine's own may stand in for the keys above.
          AWS_CONFIG_FILE: join(dir, 'no-aws-config'),
          AWS_SHARED_CREDENTIALS_FILE: join(dir, 'no-aws-credentials'),
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        }),
      });
    const objects = async () =>
      (await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${label}/` }))).Contents ?? [];
    return { space, once, objects };
  }

  it('imports through a presigned address the service fetches from the bucket, then deletes the object', async () => {
    const { space, once, objects } = await setUp('imported');
    const before = imports.length;
    const requestsBefore = s3.requests.length;
    const run = await once(S3RVER_CREDENTIALS);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { result: string; changeRequest: { id: string } };
    expect(result.result).toBe('imported');
    const [url] = imports.slice(before);
    expect(url).toMatch(
      new RegExp(`^${s3.endpoint}/${BUCKET}/imported/[A-Za-z0-9_-]+\\.zip\\?.*X-Amz-Signature=`),
    );
    // The service itself fetched it from the bucket, with the signature of the address.
    const received = s3.requests.slice(requestsBefore);
    const key = new URL(url ?? '').pathname;
    expect(
      received.some(
        (request) =>
          request.method === 'GET' &&
          request.url.startsWith(`${key}?`) &&
          request.url.includes('X-Amz-Signature='),
      ),
    ).toBe(true);
    const pages = await callApi<{ pages: Array<{ title: string }> }>(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${result.changeRequest.id}/content`,
      emulator.tokens.admin,
    );
    expect(pages.body.pages.map((page) => page.title)).toEqual(['Bucket docs', 'Setup']);
    expect(await objects()).toEqual([]);
    expect((await fetch(url ?? '')).status).toBe(404);
  });

  it('fails with the bucket to fix when it does not exist, and asks the service to import nothing', async () => {
    const { once } = await setUp('missing', 'no-such-bucket');
    const before = imports.length;
    const run = await once(S3RVER_CREDENTIALS);
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as { result: string; error: { code: string; message: string } };
    expect(result.error.code).toBe('ARTIFACT_BUCKET_MISSING');
    expect(result.error.message).toContain('no-such-bucket');
    expect(result.error.message).toContain('artifacts.s3.bucket');
    expect(imports.length).toBe(before);
  });

  it('fails with the credentials to check when the store refuses them, and asks the service to import nothing', async () => {
    const { once, objects } = await setUp('refused');
    const before = imports.length;
    const run = await once({ accessKeyId: 'NOT-S3RVER', secretAccessKey: 'wrong-secret-value' });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as { result: string; error: { code: string; message: string } };
    expect(result.error.code).toBe('ARTIFACT_STORAGE_REFUSED');
    expect(result.error.message).toContain('AWS_ACCESS_KEY_ID');
    expect(`${run.stdout}${run.stderr}`).not.toContain('wrong-secret-value');
    expect(imports.length).toBe(before);
    expect(await objects()).toEqual([]);
  });
});
