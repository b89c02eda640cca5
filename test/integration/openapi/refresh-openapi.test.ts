import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { parseConfig } from '../../../src/config/load-config.js';
import type { OpenApiConfig } from '../../../src/config/openapi-schema.js';
import { MirrorRegistry } from '../../../src/git/mirror-registry.js';
import { OpenApiInvalidError } from '../../../src/openapi/openapi-invalid-error.js';
import { openApiSourceReader } from '../../../src/openapi/openapi-source-reader.js';
import type { OperationChanges } from '../../../src/openapi/operation-changes.js';
import { refreshOpenApiSpec, sha256 } from '../../../src/openapi/refresh-openapi-spec.js';
import { jitterOf } from '../../../src/openapi/spec-jitter.js';
import { RedisOpenApiStateStore } from '../../../src/state/redis-openapi-state-store.js';
import { startFileServer } from '../../support/file-server.js';
import { createTestRepo } from '../../support/git-repos.js';
import { nextRuns } from '../../support/job-runs.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import {
  callApi,
  createTestSpace,
  startTestEmulator,
  type TestEmulator,
} from '../../support/start-test-emulator.js';
import { requestCounts, testApiClient } from '../../support/test-api-client.js';
import { captureLog, tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const UPLOAD = 'PUT /v1/orgs/:o/openapi/:slug';

function petsYaml(
  version: string,
  paths = "  /pets:\n    get:\n      responses:\n        '200': { description: ok }\n",
): string {
  return `openapi: 3.0.3\ninfo:\n  title: Pets\n  version: "${version}"\npaths:\n${paths}`;
}

async function uploads(emulator: TestEmulator): Promise<number> {
  return (await requestCounts(emulator)).counts[UPLOAD] ?? 0;
}

async function versions(emulator: TestEmulator, slug: string): Promise<number> {
  const answer = await callApi<{ items: unknown[] }>(
    `${emulator.baseUrl}/orgs/${emulator.orgId}/openapi/${slug}/versions`,
    emulator.tokens.admin,
  );
  return answer.status === 404 ? 0 : answer.body.items.length;
}

/**
 * One spec refreshed by direct calls, against the local service, a file server and a private Redis;
 * local paths are relative to `cwd`, and `mappings` is YAML put before the spec.
 */
async function setUp(
  specYaml: (emulator: TestEmulator) => string,
  options: { cwd?: string; mappings?: string } = {},
) {
  const emulator = await startTestEmulator();
  const prefix = uniquePrefix('openapi');
  const redis = testRedis(prefix);
  const config = parseConfig(
    `service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }\n${options.mappings ?? ''}openapi:\n  - org: ${emulator.orgId}\n    slug: pets\n    every: 1h\n${specYaml(emulator)}`,
    'test.yaml',
    {},
  );
  const spec = config.openapi[0] as OpenApiConfig;
  const { client } = testApiClient(emulator);
  const store = new RedisOpenApiStateStore(redis, prefix);
  const { log, lines } = captureLog();
  const mirrors = new MirrorRegistry({ dataDir: await tempDir('openapi-data'), log });
  const refresh = () =>
    refreshOpenApiSpec({
      spec,
      reader: openApiSourceReader(spec, {
        mappings: config.mappings,
        mirrorFor: mirrors.mirrorFor,
        cwd: options.cwd ?? '/',
      }),
      api: client,
      store,
      log,
      now: () => new Date(),
      signal: new AbortController().signal,
      dryRun: false,
      trigger: 'now',
    });
  return { emulator, spec, store, refresh, lines };
}

describe('refresh-openapi', () => {
  it('uploads a new valid spec once, then nothing while it is unchanged, and one version per change', async () => {
    const files = await startFileServer();
    const url = files.put('/pets.yaml', petsYaml('1'), 'application/yaml');
    const { emulator, refresh, store, lines } = await setUp(() => `    source: ${url}\n`);

    const first = await refresh();
    expect(first).toMatchObject({ result: 'uploaded', changes: { added: ['GET /pets'] } });
    expect(await uploads(emulator)).toBe(1);
    expect(await versions(emulator, 'pets')).toBe(1);

    expect(await refresh()).toEqual({ result: 'unchanged', reason: 'same-content' });
    expect(await refresh()).toEqual({ result: 'unchanged', reason: 'same-content' });
    expect(await uploads(emulator)).toBe(1);
    expect(lines.filter((line) => line.msg === 'openapi spec unchanged, not uploaded')).toHaveLength(2);

    files.put(
      '/pets.yaml',
      petsYaml(
        '2',
        "  /pets:\n    post:\n      responses:\n        '201': { description: made }\n  /pets/{id}:\n    get:\n      parameters:\n        - { name: id, in: path, required: true, schema: { type: string } }\n      responses:\n        '200': { description: ok }\n",
      ),
      'application/yaml',
    );
    const second = await refresh();
    expect(second).toMatchObject({
      result: 'uploaded',
      changes: { added: ['POST /pets', 'GET /pets/{id}'], removed: ['GET /pets'], changed: [] },
    });
    expect(await uploads(emulator)).toBe(2);
    expect(await versions(emulator, 'pets')).toBe(2);
    const state = await store.get(emulator.orgId, 'pets');
    expect(state.lastRefresh).toMatchObject({ result: 'uploaded', version: state.uploaded?.version });
    // The document's title, for people: the status names the spec by it.
    expect(state.uploaded?.title).toBe('Pets');
    expect(state.lastRefresh?.changelog).toEqual([
      'removed GET /pets (breaking)',
      'added POST /pets',
      'added GET /pets/{id}',
    ]);
  });

  it('sends the validators back and takes a 304 as unchanged without reading a body', async () => {
    const files = await startFileServer();
    const text = petsYaml('1');
    const conditional: Array<string | undefined> = [];
    const url = files.route('/etag.yaml', (request) => {
      conditional.push(request.headers['if-none-match']);
      if (request.headers['if-none-match'] === '"v1"') return { status: 304, headers: { etag: '"v1"' } };
      return { status: 200, headers: { etag: '"v1"', 'content-type': 'application/yaml' }, body: text };
    });
    const { emulator, refresh } = await setUp(() => `    source: ${url}\n`);
    expect((await refresh()).result).toBe('uploaded');
    expect(await refresh()).toEqual({ result: 'unchanged', reason: 'not-modified' });
    expect(conditional).toEqual([undefined, '"v1"']);
    expect(await uploads(emulator)).toBe(1);
  });

  it('never uploads an invalid spec, and names its problems by JSON pointer', async () => {
    const files = await startFileServer();
    const url = files.put(
      '/bad.yaml',
      'openapi: 3.0.3\ninfo: { title: Pets }\npaths:\n  /pets:\n    get:\n      responses: {}\n',
      'application/yaml',
    );
    const { emulator, refresh } = await setUp(() => `    source: ${url}\n`);
    const error = await refresh().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenApiInvalidError);
    const problems = (error as OpenApiInvalidError).problems;
    expect(problems).toContainEqual(
      expect.objectContaining({ pointer: '/info', message: expect.stringContaining('version') }),
    );
    expect(problems).toContainEqual(expect.objectContaining({ pointer: '/paths/~1pets/get/responses' }));
    expect((error as Error).message).toContain('#/info');
    expect(await uploads(emulator)).toBe(0);

    files.put('/bad.yaml', 'openapi: 3.0.3\ninfo: [unclosed\n', 'application/yaml');
    const syntax = await refresh().catch((caught: unknown) => caught);
    expect((syntax as Error).message).toMatch(/neither JSON nor YAML \(line \d+, column \d+/);
    expect(await uploads(emulator)).toBe(0);
  });

  it('bundles $refs to relative files, refuses those outside the folder, and uploads the bundle', async () => {
    const dir = await tempDir('openapi-refs');
    await writeFile(
      join(dir, 'api.yaml'),
      petsYaml(
        '1',
        "  /pets:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: { $ref: 'schemas/pet.yaml#/Pet' }\n",
      ),
    );
    await import('node:fs/promises').then((fs) => fs.mkdir(join(dir, 'schemas')));
    await writeFile(
      join(dir, 'schemas', 'pet.yaml'),
      'Pet:\n  type: object\n  properties:\n    name: { type: string }\n',
    );
    const { emulator, refresh, store } = await setUp(
      () => `    source: { file: ${join(dir, 'api.yaml')} }\n`,
    );
    expect((await refresh()).result).toBe('uploaded');
    const content = await callApi<string>(
      `${emulator.baseUrl}/orgs/${emulator.orgId}/openapi/pets/versions/latest/content`,
      emulator.tokens.admin,
    );
    expect(JSON.stringify(content.body)).not.toContain('pet.yaml');
    // A change in the referenced file alone is a new version.
    await writeFile(
      join(dir, 'schemas', 'pet.yaml'),
      'Pet:\n  type: object\n  properties:\n    name: { type: integer }\n',
    );
    // The bundle makes the referenced schema a component, as Redocly does: the operation changed through it.
    expect(await refresh()).toMatchObject({
      result: 'uploaded',
      changes: { changed: [], changedVia: [expect.objectContaining({ operation: 'GET /pets' })] },
    });
    expect((await store.get(emulator.orgId, 'pets')).uploaded?.refFiles).toBe(1);

    await writeFile(
      join(dir, 'api.yaml'),
      petsYaml('2', "  /pets:\n    get:\n      responses:\n        '200': { $ref: '../../etc/passwd' }\n"),
    );
    const refused = await refresh().catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ code: 'SOURCE_REFUSED' });
    expect((refused as Error).message).toContain('outside the folder of the document');
    expect(await uploads(emulator)).toBe(2);
  });

  it('records the code of a spec the service could not process', async () => {
    const files = await startFileServer();
    let served = 0;
    // docsync reads a valid spec; when the service fetches the same address, it fails.
    const url = files.route('/flaky.yaml', () => {
      served += 1;
      return served === 1
        ? { status: 200, headers: { 'content-type': 'application/yaml' }, body: petsYaml('1') }
        : { status: 500, body: 'down' };
    });
    const { emulator, refresh, store } = await setUp(() => `    source: ${url}\n    upload: url\n`);
    const error = await refresh().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'OPENAPI_FETCH_ERROR', retryable: true });
    expect(await uploads(emulator)).toBe(1);
    expect(await versions(emulator, 'pets')).toBe(0);
    expect((await store.get(emulator.orgId, 'pets')).uploaded).toBeUndefined();
  });
});

/** Polls the spec in the local service until its processing is complete. */
async function processed(emulator: TestEmulator, slug: string) {
  return waitFor(async () => {
    const answer = await callApi<{ processingState: string; lastProcessErrorCode?: string }>(
      `${emulator.baseUrl}/orgs/${emulator.orgId}/openapi/${slug}`,
      emulator.tokens.admin,
    );
    return answer.status === 200 && answer.body.processingState === 'complete' ? answer.body : undefined;
  }, `the processing of ${slug}`);
}

describe('refresh-openapi of real-world layouts', () => {
  it("refreshes GitHub's description end to end, then lists what a change of a shared schema touches", async () => {
    const dir = await tempDir('openapi-github');
    const file = join(dir, 'ghec.json');
    await copyFile(createRequire(import.meta.url).resolve('@octokit/openapi/generated/ghec.json'), file);
    const { emulator, refresh, store } = await setUp(
      () => `    source: { file: ${file} }\n    maxBytes: 33554432\n`,
    );

    const first = await refresh();
    expect(first.result).toBe('uploaded');
    expect((first as { changes: OperationChanges }).changes.added.length).toBeGreaterThan(1000);
    expect(await versions(emulator, 'pets')).toBe(1);
    // No $ref names another file (those in examples are data): the exact bytes went up.
    const uploaded = (await store.get(emulator.orgId, 'pets')).uploaded;
    expect(uploaded).toMatchObject({ refFiles: 0, hash: sha256(await readFile(file)) });

    const spec = JSON.parse(await readFile(file, 'utf8')) as {
      paths: Record<string, Record<string, { summary: string }>>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    (spec.components.schemas['simple-user'] as { properties: Record<string, unknown> }).properties.pronouns =
      {
        type: 'string',
      };
    (spec.paths['/meta'] as Record<string, { summary: string }>).get = {
      ...(spec.paths['/meta']?.get as { summary: string }),
      summary: 'GitHub API meta information, renamed',
    };
    await writeFile(file, JSON.stringify(spec));
    const second = (await refresh()) as { result: string; changes: OperationChanges; changelog: string[] };
    expect(second.result).toBe('uploaded');
    expect(second.changes).toMatchObject({ added: [], removed: [], changed: ['GET /meta'], uncompared: 0 });
    expect(second.changes.changedVia.length).toBeGreaterThan(100);
    for (const { components } of second.changes.changedVia)
      expect(components).toEqual(['components/schemas/simple-user']);
    expect(second.changelog[0]).toBe('changed GET /meta');
    expect(second.changelog[1]).toMatch(/^changed [A-Z]+ \/\S+ \(via components\/schemas\/simple-user\)$/);
    expect(await versions(emulator, 'pets')).toBe(2);
  });

  it("refuses a $ref out of the spec's folder unless root widens it, and never past root", async () => {
    const dir = await tempDir('openapi-root');
    await mkdir(join(dir, 'repo', 'spec'), { recursive: true });
    await mkdir(join(dir, 'repo', 'common'));
    const spec = (ref: string) =>
      petsYaml(
        '1',
        `  /pets:\n    get:\n      responses:\n        '200': { description: ok }\n        default: { $ref: '${ref}' }\n`,
      );
    await writeFile(join(dir, 'repo', 'spec', 'openapi.yaml'), spec('../common/Error.yaml'));
    await writeFile(join(dir, 'repo', 'common', 'Error.yaml'), 'description: failed\n');
    await writeFile(join(dir, 'outside.yaml'), 'description: not for upload\n');
    const cwd = join(dir, 'repo');

    const confined = await setUp(() => '    source: { file: spec/openapi.yaml }\n', { cwd });
    const refused = await confined.refresh().catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ code: 'SOURCE_REFUSED' });
    expect((refused as Error).message).toBe(
      'spec/openapi.yaml: a $ref names ../common/Error.yaml, outside the folder of the document; set source.root to a folder that holds both (root: . for the folder docsync runs in), or move ../common/Error.yaml below spec',
    );
    expect(await uploads(confined.emulator)).toBe(0);

    const widened = await setUp(() => '    source: { file: spec/openapi.yaml, root: . }\n', { cwd });
    expect(await widened.refresh()).toMatchObject({ result: 'uploaded', changes: { added: ['GET /pets'] } });
    expect((await widened.store.get(widened.emulator.orgId, 'pets')).uploaded?.refFiles).toBe(1);

    const capped = await setUp(
      () => '    source: { file: spec/openapi.yaml, root: . }\n    maxRefFiles: 0\n',
      { cwd },
    );
    expect(await capped.refresh().catch((caught: unknown) => caught)).toMatchObject({
      code: 'SOURCE_TOO_LARGE',
    });

    await writeFile(join(dir, 'repo', 'spec', 'openapi.yaml'), spec('../../outside.yaml'));
    const escaped = await widened.refresh().catch((caught: unknown) => caught);
    expect(escaped).toMatchObject({ code: 'SOURCE_REFUSED' });
    expect((escaped as Error).message).toContain(
      `a $ref names ../../outside.yaml, outside source.root ${cwd}`,
    );
    expect(await uploads(widened.emulator)).toBe(1);
  });

  it("lets the $refs of a repository's file reach the repository, or only below its root", async () => {
    const repo = await createTestRepo();
    await repo.commit(
      {
        'spec/openapi.yaml': petsYaml(
          '1',
          "  /pets:\n    get:\n      responses:\n        '200': { description: ok }\n        default: { $ref: '../common/Error.yaml' }\n",
        ),
        'common/Error.yaml': 'description: failed\n',
      },
      'Spec in its folder',
    );
    await repo.push();
    const mappings = `mappings:\n  - { name: api, space: space_1, git: { repo: ${repo.remote}, branch: main } }\n`;
    const whole = await setUp(() => '    source: { mapping: api, path: spec/openapi.yaml }\n', { mappings });
    expect(await whole.refresh()).toMatchObject({ result: 'uploaded' });
    const narrowed = await setUp(
      () => '    source: { mapping: api, path: spec/openapi.yaml, root: spec }\n',
      {
        mappings,
      },
    );
    const refused = await narrowed.refresh().catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ code: 'SOURCE_REFUSED' });
    expect((refused as Error).message).toContain('a $ref names common/Error.yaml, outside source.root spec');
  });

  it('refuses duplicate keys before uploading, as the local service does, which takes the same aliases', async () => {
    const files = await startFileServer();
    const duplicated = `${petsYaml('1')}  /pets:\n    post:\n      responses:\n        '201': { description: made }\n`;
    const url = files.put('/dup.yaml', duplicated, 'application/yaml');
    const { emulator, refresh } = await setUp(() => `    source: ${url}\n`);
    const error = await refresh().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'OPENAPI_INVALID' });
    expect((error as Error).message).toContain('line 10, column 3: has the key "/pets" twice in one object');
    expect(await uploads(emulator)).toBe(0);

    // The service, given the same text, refuses it too.
    await callApi(`${emulator.baseUrl}/orgs/${emulator.orgId}/openapi/dup`, emulator.tokens.admin, 'PUT', {
      source: { text: duplicated },
    });
    expect(await processed(emulator, 'dup')).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR' });

    // 300 aliases: past the YAML package's default of 100, within the limit both sides share.
    const aliased = petsYaml(
      '2',
      Array.from({ length: 300 }, (_, i) =>
        i === 0
          ? "  /p0:\n    get:\n      responses:\n        '200': &ok { description: ok }\n"
          : `  /p${i}:\n    get:\n      responses:\n        '200': *ok\n`,
      ).join(''),
    );
    files.put('/dup.yaml', aliased, 'application/yaml');
    expect(await refresh()).toMatchObject({ result: 'uploaded' });
    expect(await versions(emulator, 'pets')).toBe(1);
  });
});

describe('refresh-openapi in the daemon', () => {
  it('retries an unreachable source, then fails with its reason in /status', async () => {
    const emulator = await startTestEmulator();
    const files = await startFileServer();
    const url = files.route('/down.yaml', () => ({ status: 503, body: 'maintenance' }));
    const prefix = uniquePrefix('openapi-down');
    const yaml = `queues: { attempts: 3, backoff: 100ms }
openapi:
  - { org: ${emulator.orgId}, slug: down, source: "${url}", every: 1h }
`;
    const daemon = await startTestDaemon({ prefix, jobs: JOBS, service: emulator, yaml });
    const failed = await waitFor(async () => {
      const [job] = await daemon.queues.get('openapi').getFailed();
      return job?.finishedOn === undefined ? undefined : job;
    }, 'the refresh to fail');
    expect(failed.attemptsMade).toBe(3);
    expect(files.hits('/down.yaml')).toBe(3);
    expect(failed.failedReason).toContain('answered HTTP 503');
    const status = (await (await fetch(`${daemon.httpAddress}/status`)).json()) as { openapi: unknown[] };
    expect(status.openapi).toEqual([
      expect.objectContaining({
        slug: 'down',
        lastRefresh: expect.objectContaining({
          result: 'failed',
          error: expect.objectContaining({ code: 'SOURCE_UNREACHABLE' }),
        }),
      }),
    ]);
    expect(await uploads(emulator)).toBe(0);
  });

  it("waits out the spec's jitter after a tick, then refreshes", async () => {
    const emulator = await startTestEmulator();
    const files = await startFileServer();
    const url = files.put('/pets.yaml', petsYaml('1'), 'application/yaml');
    const yaml = `openapi:
  - { org: ${emulator.orgId}, slug: pets, source: "${url}", every: 1h, jitter: 1500ms }
`;
    const prefix = uniquePrefix('openapi-jitter');
    const daemon = await startTestDaemon({ prefix, jobs: JOBS, service: emulator, yaml });
    const delayed = await waitFor(
      async () => daemon.lines.find((line) => line.msg === 'job completed' && line.result === 'delayed'),
      'the tick',
    );
    expect(delayed.delayMs).toBe(jitterOf(`${emulator.orgId}/pets`, 1500));
    await waitFor(
      async () => ((await versions(emulator, 'pets')) === 1 ? true : undefined),
      'the jittered refresh',
    );
    expect(files.hits('/pets.yaml')).toBe(1);
  });

  it('runs each tick once across two processes sharing one Redis', async () => {
    const emulator = await startTestEmulator();
    const files = await startFileServer();
    let served = 0;
    // A new version on every read: any tick run twice would show as an extra read and upload.
    const url = files.route('/moving.yaml', () => {
      served += 1;
      return { status: 200, headers: { 'content-type': 'application/yaml' }, body: petsYaml(String(served)) };
    });
    const prefix = uniquePrefix('openapi-two');
    const yaml = `openapi:
  - { org: ${emulator.orgId}, slug: moving, source: "${url}", every: 1s }
`;
    // Two processes of one machine: the same data folder.
    const options = { prefix, jobs: JOBS, service: emulator, dataDir: await tempDir('openapi-two'), yaml };
    const started = Date.now();
    const one = await startTestDaemon(options);
    const two = await startTestDaemon(options);
    await waitFor(async () => ((await versions(emulator, 'moving')) >= 4 ? true : undefined), 'four ticks');
    await Promise.all([one.shutdown.run('test'), two.shutdown.run('test')]);
    const ticks = Math.floor((Date.now() - started) / 1000) + 1;
    // Each read made one upload and one version; two processes running each tick would double them.
    expect(served).toBeGreaterThanOrEqual(4);
    expect(served).toBeLessThanOrEqual(ticks);
    expect(await uploads(emulator)).toBe(served);
    expect(await versions(emulator, 'moving')).toBe(served);
  });

  it('refreshes a spec kept in a mapped repository as soon as a commit touches it', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await createTestRepo();
    await repo.commit({ 'docs/README.md': '# Docs\n', 'api/openapi.yaml': petsYaml('1') }, 'First');
    await repo.push();
    const prefix = uniquePrefix('openapi-git');
    const yaml = `mappings:
  - { name: docs, space: ${space}, git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s } }
openapi:
  - { org: ${emulator.orgId}, slug: from-git, source: { mapping: docs, path: api/openapi.yaml }, every: 30d }
`;
    const daemon = await startTestDaemon({ prefix, jobs: JOBS, service: emulator, yaml });
    await waitFor(
      async () => ((await versions(emulator, 'from-git')) === 1 ? true : undefined),
      'the first version',
    );
    await repo.commit({ 'api/openapi.yaml': petsYaml('2') }, 'Bump the API');
    await repo.push();
    await waitFor(
      async () => ((await versions(emulator, 'from-git')) === 2 ? true : undefined),
      'the version of the commit',
    );
    // A commit elsewhere makes no upload.
    await repo.commit({ 'docs/README.md': '# Docs!\n' }, 'Docs only');
    await repo.push();
    const before = await uploads(emulator);
    const queued = () => daemon.lines.filter((line) => line.msg === 'openapi refresh queued by a commit');
    const refreshes = queued().length;
    await nextRuns([daemon.lines], 'poll-git', 2);
    expect(queued()).toHaveLength(refreshes);
    expect(await uploads(emulator)).toBe(before);
    expect(await versions(emulator, 'from-git')).toBe(2);
  });
});
