import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { openApiFileWorld, petsYaml } from '../../support/openapi-file-world.js';

const setUp = () => openApiFileWorld('openapi-breaking');

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
