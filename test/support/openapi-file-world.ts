// One OpenAPI spec in a local file, refreshed by direct calls against the local service, its state
// in the test's Redis under a prefix of its own: the world of the refresh tests that change a
// file and look at the versions, changelogs and breaking changes that follow.
import { join } from 'node:path';
import { parseConfig } from '../../src/config/load-config.js';
import type { OpenApiConfig } from '../../src/config/openapi-schema.js';
import { MirrorRegistry } from '../../src/git/mirror-registry.js';
import { openApiSourceReader } from '../../src/openapi/openapi-source-reader.js';
import { refreshOpenApiSpec } from '../../src/openapi/refresh-openapi-spec.js';
import { RedisOpenApiStateStore } from '../../src/state/redis-openapi-state-store.js';
import { startTestEmulator } from './start-test-emulator.js';
import { testApiClient } from './test-api-client.js';
import { captureLog, tempDir, testRedis, uniquePrefix } from './test-context.js';

/** Version 1 of a small API; `edit` changes its text into a later version. */
export function petsYaml(edit: (text: string) => string = (text) => text): string {
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

/** A spec `pets` read from `file`; `refresh(store)` refreshes it with another store (a new Redis). */
export async function openApiFileWorld(label: string) {
  const emulator = await startTestEmulator();
  const dir = await tempDir(label);
  const file = join(dir, 'pets.yaml');
  const prefix = uniquePrefix(label);
  const config = parseConfig(
    `service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }\nopenapi:\n  - org: ${emulator.orgId}\n    slug: pets\n    every: 1h\n    source: { file: ${file} }\n`,
    'test.yaml',
    {},
  );
  const spec = config.openapi[0] as OpenApiConfig;
  const redis = testRedis(prefix);
  const store = new RedisOpenApiStateStore(redis, prefix);
  const { log, lines } = captureLog();
  const mirrors = new MirrorRegistry({ dataDir: await tempDir(`${label}-data`), log });
  const refresh = (into: RedisOpenApiStateStore = store) =>
    refreshOpenApiSpec({
      spec,
      reader: openApiSourceReader(spec, { mappings: [], mirrorFor: mirrors.mirrorFor, cwd: dir }),
      api: testApiClient(emulator).client,
      store: into,
      log,
      now: () => new Date(),
      signal: new AbortController().signal,
      dryRun: false,
      trigger: 'now',
    });
  return { emulator, file, prefix, store, redis, refresh, lines };
}
