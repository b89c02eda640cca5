// Two-way: a writer edits the space while a person commits to git. The import of that commit must not
// undo the writer's edit (its change request is made from the space's content, then filled with git's
// folder, and merging it would put git's older page back): it waits until the space poll has exported
// the edit, then imports the branch holding both, and nothing is lost on either side.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { pollSpaceKind } from '../../../src/queue/kinds/poll-space-kind.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { createTestRepo, type TestRepo } from '../../support/git-repos.js';
import { completedRuns } from '../../support/job-runs.js';
import { editInService, findPage } from '../../support/service-content.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { stateWhere } from '../../support/state-where.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

async function remote(repo: TestRepo, ...args: string[]): Promise<string> {
  return repo.git('--git-dir', repo.remote, ...args);
}

describe('a service edit and a git commit at once', () => {
  it('exports the edit before importing the commit, so neither is lost', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await createTestRepo();
    const first = await repo.commit(
      { 'docs/README.md': '# Welcome\n', 'docs/notes.md': '# Notes\n' },
      'Write the docs',
    );
    await repo.push();
    const prefix = uniquePrefix('import-waits');
    const state = new RedisMappingStateStore(testRedis(prefix), prefix);
    // The space poll runs once at start, then only when the test asks: the edit stays unexported.
    const daemon = await startTestDaemon({
      prefix,
      jobs: JOBS,
      service: emulator,
      yaml: `mappings:
  - name: docs
    space: ${space}
    direction: both
    git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s }
    export: { poll: 1h }
    changeRequest: { poll: 1s }
    merge: { enabled: true, approvals: 0 }
`,
    });
    await stateWhere(state, 'docs', (s) => s.lastMerge !== undefined, 'the first import, merged');
    // The space poll sees the merge: the space now equals the first commit, the base of exports.
    await pollSpaceKind.enqueue(daemon.queues, { mapping: 'docs' }, { reason: 'merged' });
    await stateWhere(state, 'docs', (s) => s.exportBase === first, 'the merge seen by the space poll');

    const edit = editInService(emulator.emulator, { spaceId: space }, (pages) => {
      findPage(pages, 'notes.md').markdown = '# Notes\n\nWritten in the service.\n';
    }).id;
    await repo.git('pull', '--quiet', '--ff-only', 'origin', 'main');
    const commit = await repo.commit({ 'docs/README.md': '# Welcome\n\nWritten in git.\n' }, 'Edit in git');
    await repo.push();
    // Two git polls find the commit and defer its import: the space's edit is not in git yet.
    await waitFor(
      () =>
        completedRuns(daemon.lines, 'import-content').filter((line) => line.result === 'deferred').length >=
          2 || undefined,
      'the import of the commit deferred twice',
    );
    expect((await state.get('docs')).lastImportedSha).not.toBe(commit);

    await pollSpaceKind.enqueue(daemon.queues, { mapping: 'docs' }, { reason: 'test' });
    const exported = await stateWhere(
      state,
      'docs',
      (s) => s.lastExport?.revision === edit,
      'the export of the edit',
    );
    expect(exported.lastExport).toMatchObject({ result: 'committed', keptFromGit: ['README.md'] });
    const merged = await stateWhere(
      state,
      'docs',
      (s) =>
        s.lastImportedSha !== first &&
        s.lastMerge?.revision !== undefined &&
        s.lastImport?.result === 'imported' &&
        s.lastMerge.changeRequest.id === s.lastImport.changeRequest?.id,
      'the import of the branch with both edits, merged',
    );
    expect(await remote(repo, 'show', 'main:docs/notes.md')).toBe('# Notes\n\nWritten in the service.');
    expect(await remote(repo, 'show', 'main:docs/README.md')).toBe('# Welcome\n\nWritten in git.');
    const pages = await callApi<{ pages: Array<{ path: string; markdown?: string }> }>(
      `${emulator.baseUrl}/spaces/${space}/content/pages?format=markdown`,
      emulator.tokens.admin,
    );
    expect(merged.lastMerge).toBeDefined();
    expect(JSON.stringify(pages.body)).toContain('Written in the service.');
    expect(JSON.stringify(pages.body)).toContain('Written in git.');
  });
});
