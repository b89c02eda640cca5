import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import type { OpenApiConfig } from '../../../src/config/openapi-schema.js';
import { MirrorRegistry } from '../../../src/import/mirror-registry.js';
import { openApiSourceReader } from '../../../src/openapi/openapi-source-reader.js';
import { refreshOpenApiSpec } from '../../../src/openapi/refresh-openapi-spec.js';
import { RedisOpenApiStateStore } from '../../../src/state/redis-openapi-state-store.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';
import { captureLog, tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';

/** Version 1 of a small API; `edit` changes its text into a later version. */
function petsYaml(edit: (text: string) => string = (text) => text): string {
  return edit(`openapi: 3.0.3
info: { title: Pets, version: "1" }
paths:
  /pets:
    get:
      parameters:
        - { name: limit, in: query, schema: { type: integer } }
      responses:
        '200':
          description: the pets
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Pet' } }
  /pets/{id}:
    delete:
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '204': { description: gone }
components:
  schemas:
    Pet:
      type: object
      properties:
        id: { type: string }
        name: { type: string }
`);
}

/** A spec in a local file refreshed against the local service, its state in the test's Redis. */
async function setUp() {
  const emulator = await startTestEmulator();
  const dir = await tempDir('openapi-breaking');
  const file = join(dir, 'pets.yaml');
  const prefix = uniquePrefix('openapi-breaking');
  const config = parseConfig(
    `service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }\nopenapi:\n  - org: ${emulator.orgId}\n    slug: pets\n    every: 1h\n    source: { file: ${file} }\n`,
    'test.yaml',
    {},
  );
  const spec = config.openapi[0] as OpenApiConfig;
  const redis = testRedis(prefix);
  const store = new RedisOpenApiStateStore(redis, prefix);
  const { log } = captureLog();
  const mirrors = new MirrorRegistry({ dataDir: await tempDir('openapi-breaking-data'), log });
  const refresh = () =>
    refreshOpenApiSpec({
      spec,
      reader: openApiSourceReader(spec, { mappings: [], mirrorFor: mirrors.mirrorFor, cwd: dir }),
      api: testApiClient(emulator).client,
      store,
      log,
      now: () => new Date(),
      signal: new AbortController().signal,
      dryRun: false,
      trigger: 'now',
    });
  return { emulator, file, store, redis, refresh };
}

describe('refresh-openapi breaking-change marks', () => {
  it('marks in the changelog what a new version breaks, from the contract kept of the last upload', async () => {
    const { emulator, file, store, redis, refresh } = await setUp();
    await writeFile(file, petsYaml());
    expect((await refresh()).result).toBe('uploaded');
    expect((await store.get(emulator.orgId, 'pets')).uploaded?.contract).toEqual(expect.any(String));
    // The contract has a key of its own: the summary /status reads of every spec never carries it.
    expect(await store.summary(emulator.orgId, 'pets')).not.toHaveProperty('uploaded.contract');
    expect(await redis.get(store.keyOf(emulator.orgId, 'pets'))).not.toContain('"contract"');

    // limit becomes required, Pet loses name, DELETE goes, GET /owners comes.
    await writeFile(
      file,
      petsYaml((text) =>
        text
          .replace('{ name: limit, in: query, schema', '{ name: limit, in: query, required: true, schema')
          .replace('        name: { type: string }\n', '')
          .replace(/ {2}\/pets\/\{id\}:[\s\S]*?'204': \{ description: gone \}\n/, '')
          .replace(
            'components:',
            "  /owners:\n    get:\n      responses:\n        '200': { description: the owners }\ncomponents:",
          ),
      ),
    );
    const second = await refresh();
    expect(second.result).toBe('uploaded');
    const changelog = [
      'changed GET /pets (breaking: query parameter limit is now required; removed field [].name of response 200 application/json (in components/schemas/Pet))',
      'removed DELETE /pets/{id} (breaking)',
      'added GET /owners',
    ];
    expect(second).toMatchObject({ changelog });
    // What /status and `docsync status` show: the marks are in the recorded changelog.
    const state = await store.get(emulator.orgId, 'pets');
    expect(state.lastRefresh?.changelog).toEqual(changelog);
    expect(state.lastVersion?.changelog).toEqual(changelog);
  });

  it('marks only the removed operations after an upload recorded without a contract', async () => {
    const { emulator, file, store, refresh } = await setUp();
    await writeFile(file, petsYaml());
    expect((await refresh()).result).toBe('uploaded');
    // The record an older docsync left: fingerprints, no contract.
    const { uploaded } = await store.get(emulator.orgId, 'pets');
    const { contract: _dropped, ...older } = uploaded ?? { contract: undefined };
    await store.update(emulator.orgId, 'pets', { uploaded: older as typeof uploaded });

    await writeFile(
      file,
      petsYaml((text) =>
        text
          .replace('{ name: limit, in: query, schema', '{ name: limit, in: query, required: true, schema')
          .replace(/ {2}\/pets\/\{id\}:[\s\S]*?'204': \{ description: gone \}\n/, ''),
      ),
    );
    const second = await refresh();
    expect(second).toMatchObject({
      result: 'uploaded',
      changelog: ['removed DELETE /pets/{id} (breaking)', 'changed GET /pets'],
    });
    // The next version is compared with the contract this one kept.
    expect((await store.get(emulator.orgId, 'pets')).uploaded?.contract).toEqual(expect.any(String));
  });
});
