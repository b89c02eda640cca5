// The same content is imported once, whatever brought it: a save in a watched working copy is
// imported at once, and the commit of those same files, found by the git poll later, is recognized
// by its content and not imported again (a new revision would drop the change request's approvals
// and ask for a second review and link check). The commit is then the one the change request's
// revision names, as if imported from it: space to git learns from it what the space equals once
// that change request is merged.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { createTestRepo } from '../../support/git-repos.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { requestCounts } from '../../support/test-api-client.js';
import { tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const IMPORT_ROUTE = 'POST /v1/spaces/:s/change-requests/:cr/content/import';

describe('a save, then its commit', () => {
  it('imports the save and recognizes the commit of the same files as unchanged', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await createTestRepo();
    const first = await repo.commit({ 'docs/README.md': '# Welcome\n' }, 'Write the first docs');
    await repo.push();
    const prefix = uniquePrefix('same-content');
    const state = new RedisMappingStateStore(testRedis(prefix), prefix);
    await startTestDaemon({
      prefix,
      jobs: JOBS,
      yaml: `dataDir: ${await tempDir('daemon-data')}
service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }
mappings:
  - name: docs
    space: ${space}
    git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s, watch: { path: ${repo.work}, debounce: 200ms } }
`,
    });
    const imports = async () => (await requestCounts(emulator)).counts[IMPORT_ROUTE] ?? 0;
    await waitFor(
      async () => ((await state.get('docs')).lastImportedSha === first ? true : undefined),
      'the first commit imported',
    );

    await writeFile(join(repo.work, 'docs', 'guide.md'), '# Guide\n\nSaved, not yet committed.\n');
    const saved = await waitFor(async () => {
      const last = (await state.get('docs')).lastImport;
      return last?.source === 'worktree' && last.result === 'imported' ? last : undefined;
    }, 'the import of the saved working copy');
    const afterSave = await imports();
    // Saved files are in no commit yet.
    expect(await state.revisionOrigin(space, String(saved.revision))).toMatchObject({ kind: 'import' });
    expect((await state.revisionOrigin(space, String(saved.revision)))?.sha).toBeUndefined();

    const commit = await repo.commit({}, 'Add the guide');
    await repo.push();
    const unchanged = await waitFor(async () => {
      const current = await state.get('docs');
      return current.lastImportedSha === commit ? current.lastImport : undefined;
    }, 'the poll of the commit');
    expect(unchanged).toMatchObject({ source: 'git', sha: commit, result: 'unchanged' });
    expect(await imports()).toBe(afterSave);
    // The change request keeps the revision of the save: its review and link check still hold.
    const changeRequest = await callApi<{ revision: string }>(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${saved.changeRequest?.id}`,
      emulator.tokens.admin,
    );
    expect(changeRequest.body.revision).toBe(saved.revision);
    expect(await state.revisionOrigin(space, String(saved.revision))).toEqual({
      kind: 'import',
      mapping: 'docs',
      changeRequest: saved.changeRequest?.id,
      sha: commit,
    });
  });
});
