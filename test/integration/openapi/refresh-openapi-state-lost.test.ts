import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseOpenApiText } from '../../../src/openapi/parse-openapi-text.js';
import { RedisOpenApiStateStore } from '../../../src/state/redis-openapi-state-store.js';
import { openApiFileWorld, petsYaml } from '../../support/openapi-file-world.js';
import { callApi, type TestEmulator } from '../../support/start-test-emulator.js';
import { requestCounts } from '../../support/test-api-client.js';
import { uniquePrefix } from '../../support/test-context.js';

const UPLOAD = 'PUT /v1/orgs/:o/openapi/:slug';

async function uploads(emulator: TestEmulator): Promise<number> {
  return (await requestCounts(emulator)).counts[UPLOAD] ?? 0;
}

/** The ids of the spec's versions, newest first. */
async function versionIds(emulator: TestEmulator): Promise<string[]> {
  const answer = await callApi<{ items: Array<{ id: string }> }>(
    `${emulator.baseUrl}/orgs/${emulator.orgId}/openapi/pets/versions`,
    emulator.tokens.admin,
  );
  return answer.body.items.map((item) => item.id);
}

/** Version 2: limit becomes required, Pet loses name, DELETE goes. */
const petsYaml2 = () =>
  petsYaml((text) =>
    text
      .replace('{ name: limit, in: query, schema', '{ name: limit, in: query, required: true, schema')
      .replace('        name: { type: string }\n', '')
      .replace(/ {2}\/pets\/\{id\}:[\s\S]*?'204': \{ description: gone \}\n/, ''),
  );

const CHANGELOG_2 = [
  'changed GET /pets (breaking: query parameter limit is now required; removed field [].name of response 200 application/json (in components/schemas/Pet))',
  'removed DELETE /pets/{id} (breaking)',
];

describe('refresh-openapi after Redis lost its state', () => {
  it("finds the upload again in the service's latest version: nothing uploaded, the record rebuilt", async () => {
    const { emulator, file, prefix, store, redis, refresh, lines } = await openApiFileWorld('openapi-lost');
    await writeFile(file, petsYaml());
    const first = await refresh();
    expect(first.result).toBe('uploaded');
    const recorded = await store.get(emulator.orgId, 'pets');
    const [version] = await versionIds(emulator);

    // Redis comes back empty: every key docsync kept is gone.
    await redis.del(...(await redis.keys(`${prefix}:*`)));
    expect(await store.get(emulator.orgId, 'pets')).toEqual({});

    expect(await refresh()).toEqual({ result: 'unchanged', reason: 'same-as-service', version });
    expect(await uploads(emulator)).toBe(1);
    expect(await versionIds(emulator)).toEqual([version]);
    expect(lines.map((line) => line.msg)).toContain(
      'openapi spec found unchanged on the service, not uploaded',
    );
    // The record is the one the upload made: version, hashes, fingerprints and contract.
    const rebuilt = await store.get(emulator.orgId, 'pets');
    const { at: _uploadedAt, ...kept } = recorded.uploaded ?? { at: '' };
    expect(rebuilt.uploaded).toMatchObject({ ...kept, version });
    expect(rebuilt.lastRefresh).toMatchObject({ result: 'unchanged', version });
    // From the record again: the service is not asked.
    expect(await refresh()).toEqual({ result: 'unchanged', reason: 'same-content' });

    // A change is one new version, its breaking changes marked against the contract found again.
    await writeFile(file, petsYaml2());
    const second = await refresh();
    expect(second).toMatchObject({ result: 'uploaded', changelog: CHANGELOG_2 });
    expect(await uploads(emulator)).toBe(2);
    const after = await versionIds(emulator);
    expect(after).toHaveLength(2);
    expect(second).toMatchObject({ version: after[0] });
    expect(after[1]).toBe(version);
  });

  it('takes the same document written another way as the content the service holds', async () => {
    const { emulator, file, refresh, redis } = await openApiFileWorld('openapi-lost-json');
    await writeFile(file, petsYaml());
    await refresh();
    const [version] = await versionIds(emulator);

    // A new Redis (another prefix), and the source rewritten as JSON with its keys in another order:
    // the text differs, the document does not.
    const parsed = parseOpenApiText(petsYaml());
    if (!parsed.ok) throw new Error('petsYaml does not parse');
    const { paths, ...rest } = parsed.value as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ paths, ...rest }, null, 4));
    const fresh = new RedisOpenApiStateStore(redis, uniquePrefix('openapi-lost-json'));
    expect(await refresh(fresh)).toEqual({ result: 'unchanged', reason: 'same-as-service', version });
    expect(await uploads(emulator)).toBe(1);
    expect(await versionIds(emulator)).toEqual([version]);
  });

  it("counts a change made while the state was lost from the service's version, and never uploads invalid content", async () => {
    const { emulator, file, redis, refresh } = await openApiFileWorld('openapi-lost-changed');
    await writeFile(file, petsYaml());
    await refresh();
    const [version] = await versionIds(emulator);
    const fresh = new RedisOpenApiStateStore(redis, uniquePrefix('openapi-lost-changed'));

    // A response without its description: valid YAML, not a valid OpenAPI document.
    await writeFile(
      file,
      petsYaml((text) => text.replace("'204': { description: gone }", "'204': {}")),
    );
    await expect(refresh(fresh)).rejects.toMatchObject({ code: 'OPENAPI_INVALID' });
    expect(await uploads(emulator)).toBe(1);

    await writeFile(file, petsYaml2());
    const changed = await refresh(fresh);
    expect(changed).toMatchObject({ result: 'uploaded', operations: 1, changelog: CHANGELOG_2 });
    expect(await uploads(emulator)).toBe(2);
    expect(await versionIds(emulator)).toEqual([(changed as { version: string }).version, version]);
  });
});
