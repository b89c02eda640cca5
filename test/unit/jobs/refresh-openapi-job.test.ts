// The OpenAPI refresh job's own decisions, with its services faked: a scheduled tick of a spec with
// a jitter only queues the refresh after it (and ends no failures in a row), a spec that left the
// configuration fails as SPEC_UNKNOWN, and a failed refresh is counted in /metrics as invalid or
// failed while its record is left to the runner (src/state/record-outcome.ts, tested on its own).
// What a refresh uploads, and when, is refreshOpenApiSpec's, tested with the emulator in
// test/integration/openapi/.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type RefreshOpenApiServices,
  refreshOpenApiJob,
} from '../../../jobs/refresh-openapi/refresh-openapi-job.js';
import { parseConfig } from '../../../src/config/load-config.js';
import type { DocsyncMetrics } from '../../../src/metrics/docsync-metrics.js';
import { jitterOf } from '../../../src/openapi/spec-jitter.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { fakeJobRun } from '../../support/fake-job-run.js';
import { recordingQueues } from '../../support/recording-queues.js';

const NOW = new Date('2026-03-01T12:00:00Z');

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A spec read from `file`, refreshed hourly after `jitter`, and the services of its configuration. */
function world(spec: { file: string; jitter?: string }) {
  const config = parseConfig(
    JSON.stringify({
      service: { baseUrl: 'https://docs.example.com/v1', token: 't' },
      openapi: [
        {
          org: 'acme',
          slug: 'public-api',
          source: { file: spec.file },
          every: '1h',
          jitter: spec.jitter ?? '0s',
        },
      ],
    }),
    'docsync.yaml',
    {},
  );
  const refreshes: { spec: string; result: string }[] = [];
  const metrics = {
    openApiRefresh: (org: string, slug: string, result: string) =>
      refreshes.push({ spec: `${org}/${slug}`, result }),
    openApiVersion: () => {
      throw new Error('no version is uploaded in these tests');
    },
  } as Pick<DocsyncMetrics, 'openApiRefresh' | 'openApiVersion'> as DocsyncMetrics;
  const { queues, added } = recordingQueues();
  const services: RefreshOpenApiServices = {
    config,
    api: undefined,
    stores: memoryStores(() => NOW),
    mirrorFor: () => {
      throw new Error('a file source reads no git');
    },
    queues,
    now: () => NOW,
    dryRun: false,
    metrics,
  };
  return { services, added, refreshes };
}

async function specFile(text: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'docsync-refresh-job-'));
  folders.push(folder);
  const file = join(folder, 'openapi.yaml');
  await writeFile(file, text);
  return file;
}

const run = () => fakeJobRun({ name: 'refresh-openapi', queue: 'openapi', id: 'repeat:acme:1' });

describe('refresh-openapi job', () => {
  it('waits out the jitter of a scheduled tick: queues the refresh after it, reads nothing, counts nothing', async () => {
    const { services, added, refreshes } = world({ file: '/nonexistent/openapi.yaml', jitter: '10m' });
    const result = await refreshOpenApiJob.run(
      { ...services, ...run().run },
      { org: 'acme', slug: 'public-api', trigger: 'schedule' },
    );
    const delayMs = jitterOf('acme/public-api', 600_000);
    expect(result).toEqual({ result: 'delayed', delayMs, counted: false });
    expect(added).toEqual([
      expect.objectContaining({
        queue: 'openapi',
        name: 'refresh-openapi',
        data: { org: 'acme', slug: 'public-api', trigger: 'tick' },
        opts: expect.objectContaining({ delay: delayMs }),
      }),
    ]);
    expect(refreshes).toEqual([]);
    expect(await services.stores.openapi.get('acme', 'public-api')).toEqual({});
  });

  it('reads the source at once when the spec has no jitter', async () => {
    const { services, added, refreshes } = world({ file: '/nonexistent/openapi.yaml' });
    await expect(
      refreshOpenApiJob.run(
        { ...services, ...run().run },
        { org: 'acme', slug: 'public-api', trigger: 'schedule' },
      ),
    ).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
    expect(added).toEqual([]);
    expect(refreshes).toEqual([{ spec: 'acme/public-api', result: 'failed' }]);
  });

  it('fails as SPEC_UNKNOWN for a spec gone from the configuration, counted nowhere', async () => {
    const { services, added, refreshes } = world({ file: '/nonexistent/openapi.yaml', jitter: '10m' });
    await expect(
      refreshOpenApiJob.run(
        { ...services, ...run().run },
        { org: 'acme', slug: 'removed', trigger: 'schedule' },
      ),
    ).rejects.toMatchObject({ code: 'SPEC_UNKNOWN' });
    expect(added).toEqual([]);
    expect(refreshes).toEqual([]);
  });

  it('counts an invalid document as invalid in /metrics, and leaves its record to the runner', async () => {
    const file = await specFile('openapi: 3.0.3\ninfo:\n  version: "1"\npaths: {}\n');
    const { services, refreshes } = world({ file });
    const job = run();
    await expect(
      refreshOpenApiJob.run({ ...services, ...job.run }, { org: 'acme', slug: 'public-api', trigger: 'git' }),
    ).rejects.toMatchObject({ code: 'OPENAPI_INVALID' });
    expect(refreshes).toEqual([{ spec: 'acme/public-api', result: 'invalid' }]);
    expect(job.outcomes).toEqual([]);
    expect((await services.stores.openapi.get('acme', 'public-api')).failures).toBeUndefined();
  });

  it("counts toward its spec with the refresh's trigger, under the spec's lock", () => {
    const payload = { org: 'acme', slug: 'public-api', trigger: 'git' as const };
    const { countsToward } = refreshOpenApiJob;
    expect(countsToward === false ? undefined : countsToward(payload)).toEqual({
      openapi: { org: 'acme', slug: 'public-api', trigger: 'git' },
    });
    expect(refreshOpenApiJob.lockKey?.(payload)).toBe('openapi/acme/public-api');
  });
});
