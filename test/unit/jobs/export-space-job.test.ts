// The export job's own decisions, with its services faked: which mappings it leaves alone, and when
// it tells imports that the revision it was queued for is in git (exportFinished). What an export
// writes to git is runExport's, tested on real repositories in test/integration/export/.
import { describe, expect, it } from 'vitest';
import { type ExportSpaceServices, exportSpaceJob } from '../../../jobs/export-space/export-space-job.js';
import { requireMapping } from '../../../jobs/job-requirements.js';
import type { DocsApiClient } from '../../../src/api/docs-api-client.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { exportSettingsKey } from '../../../src/export/export-settings-key.js';
import type { GitMirror } from '../../../src/git/git-mirror.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { fakeJobRun } from '../../support/fake-job-run.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const HEAD = 'a'.repeat(40);
const BASE = 'b'.repeat(40);

const config = parseConfig(
  JSON.stringify({
    service: { baseUrl: 'https://docs.example.com/v1', token: 't' },
    mappings: [
      { name: 'inbound', space: 'spc_in', git: { repo: './in', branch: 'main' } },
      {
        name: 'outbound',
        space: 'spc_out',
        direction: 'space-to-git',
        git: { repo: './out', branch: 'main', dir: 'docs' },
      },
    ],
  }),
  'docsync.yaml',
  {},
);

const outbound = requireMapping({ config }, 'outbound');

/** The space at `revision`, and a mirror whose docs folder is the tree the last export left. */
function settledWorld(revision: string) {
  const api = {
    spaces: { get: async (_space: string) => ({ revision }) },
  } as Pick<DocsApiClient, 'spaces'> as DocsApiClient;
  const mirror = {
    fetch: async () => {},
    resolve: async () => HEAD,
    treeHash: async () => 'tree-1',
  } as Pick<GitMirror, 'fetch' | 'resolve' | 'treeHash'> as GitMirror;
  return { api, mirror };
}

function services(overrides: Partial<ExportSpaceServices> = {}): ExportSpaceServices {
  return {
    config,
    api: undefined,
    mirrorFor: () => {
      throw new Error('this export must not read git');
    },
    stores: memoryStores(() => NOW),
    now: () => NOW,
    dryRun: false,
    ...overrides,
  };
}

const run = () => fakeJobRun({ name: 'export-space', queue: 'export' });

/** State after an export of `revision` that left the folder settled: its repeat reads nothing. */
async function exportedBefore(svc: ExportSpaceServices, revision: string): Promise<void> {
  await svc.stores.mappings.update('outbound', {
    exportBase: BASE,
    exportQueued: revision,
    lastExport: {
      at: NOW.toISOString(),
      result: 'committed',
      revision,
      sha: BASE,
      tree: 'tree-1',
      settings: exportSettingsKey(outbound),
      base: BASE,
    },
  });
}

describe('export-space job', () => {
  it('leaves a mapping that only imports (git-to-space) alone, reading nothing', async () => {
    const svc = services();
    const job = run();
    const result = await exportSpaceJob.run(
      { ...svc, ...job.run },
      { mapping: 'inbound', space: 'spc_in', revision: 'rev-1' },
    );
    expect(result).toEqual({ result: 'skipped', reason: 'direction' });
    expect(await svc.stores.mappings.get('inbound')).toEqual({});
    expect(job.outcomes).toEqual([]);
  });

  it('fails as SERVICE_NOT_CONFIGURED when the configuration names no service', async () => {
    await expect(
      exportSpaceJob.run(
        { ...services(), ...run().run },
        { mapping: 'outbound', space: 'spc_out', revision: 'rev-1' },
      ),
    ).rejects.toMatchObject({ code: 'SERVICE_NOT_CONFIGURED' });
  });

  it('fails as MAPPING_UNKNOWN for a mapping gone from the configuration', async () => {
    await expect(
      exportSpaceJob.run({ ...services(), ...run().run }, { mapping: 'gone', space: 'spc_x', revision: 'r' }),
    ).rejects.toMatchObject({ code: 'MAPPING_UNKNOWN' });
  });

  it('records the revision it was queued for as finished, which imports wait for', async () => {
    const { api, mirror } = settledWorld('rev-7');
    const svc = services({ api, mirrorFor: () => mirror });
    await exportedBefore(svc, 'rev-7');
    const job = run();
    const result = await exportSpaceJob.run(
      { ...svc, ...job.run },
      { mapping: 'outbound', space: 'spc_out', revision: 'rev-7' },
    );
    expect(result).toMatchObject({ result: 'unchanged', revision: 'rev-7' });
    expect((await svc.stores.mappings.get('outbound')).exportFinished).toBe('rev-7');
    // The runner records the mapping's success from the kind's countsToward, not the job.
    expect(job.outcomes).toEqual([]);
    expect((await svc.stores.mappings.get('outbound')).failures).toBeUndefined();
  });

  it('records nothing in a dry run', async () => {
    const { api, mirror } = settledWorld('rev-7');
    const svc = services({ api, mirrorFor: () => mirror, dryRun: true });
    await exportedBefore(svc, 'rev-7');
    const result = await exportSpaceJob.run(
      { ...svc, ...run().run },
      { mapping: 'outbound', space: 'spc_out', revision: 'rev-7' },
    );
    expect(result).toMatchObject({ result: 'unchanged' });
    expect((await svc.stores.mappings.get('outbound')).exportFinished).toBeUndefined();
  });

  it('says which commit or conflict branch an export made, and nothing for an unchanged one', () => {
    const payload = { mapping: 'outbound', space: 'spc_out', revision: 'rev-7' };
    const at = NOW.toISOString();
    expect(
      exportSpaceJob.describe?.({ at, result: 'committed', revision: 'rev-7', sha: 'c'.repeat(40) }, payload),
    ).toBe('exported revision rev-7 to git as commit ccccccc');
    expect(
      exportSpaceJob.describe?.(
        { at, result: 'conflict', revision: 'rev-7', branch: 'docsync/conflict-rev-7' },
        payload,
      ),
    ).toBe('revision rev-7 conflicts with git: committed to branch docsync/conflict-rev-7');
    expect(
      exportSpaceJob.describe?.({ at, result: 'unchanged', revision: 'rev-7' }, payload),
    ).toBeUndefined();
  });

  it('counts toward its mapping and locks its space', () => {
    const payload = { mapping: 'outbound', space: 'spc_out', revision: 'rev-7' };
    const { countsToward } = exportSpaceJob;
    expect(countsToward === false ? undefined : countsToward(payload)).toEqual({ mapping: 'outbound' });
    expect(exportSpaceJob.lockKey?.(payload)).toBe('spc_out');
    expect(exportSpaceJob.needs).toEqual(['config', 'api', 'mirrorFor', 'stores', 'now', 'dryRun']);
  });
});
