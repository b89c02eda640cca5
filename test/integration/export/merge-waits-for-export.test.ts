// Two-way: a writer edits the space while docsync's change request waits for its review. Brought up
// to date before the merge, the change request's base holds the edit; merged then, the edit would be
// in a revision of docsync's, which the space poll does not export, and the next import would take it
// out of the service again. The merge waits for the edit's export, and nothing is lost.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { pollSpaceKind } from '../../../src/queue/kinds/poll-space-kind.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { createTestRepo } from '../../support/git-repos.js';
import { completedRuns } from '../../support/job-runs.js';
import { editInService, findPage } from '../../support/service-content.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import {
  callApi,
  createTestSpace,
  startTestEmulator,
  type TestEmulator,
} from '../../support/start-test-emulator.js';
import { stateWhere } from '../../support/state-where.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

/** A reviewer approving each new revision of the change request, until `done` says to stop. */
function reviewer(emulator: TestEmulator, space: string, cr: () => string | undefined) {
  return async () => {
    const id = cr();
    const now = id === undefined ? undefined : emulator.emulator.state.changeRequests[id];
    if (id === undefined || now?.status !== 'open') return;
    const approved = Object.values(emulator.emulator.state.reviews).some(
      (review) => review.changeRequestId === id && review.revision === now.revision,
    );
    if (approved) return;
    const answer = await callApi(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${id}/reviews`,
      emulator.tokens.reviewer,
      'POST',
      { status: 'approved' },
    );
    expect(answer.status).toBe(201);
  };
}

describe('a service edit while docsync’s change request waits for its review', () => {
  it('merges only after the edit is exported, and loses neither side', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await createTestRepo();
    await repo.commit({ 'docs/README.md': '# Welcome\n', 'docs/notes.md': '# Notes\n' }, 'Write the docs');
    await repo.push();
    const prefix = uniquePrefix('merge-waits');
    const state = new RedisMappingStateStore(testRedis(prefix), prefix);
    // The space poll runs once at start, then only when the test asks.
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
    merge: { enabled: true, approvals: 1 }
`,
    });
    let current: string | undefined;
    const approve = reviewer(emulator, space, () => current);
    const first = await stateWhere(state, 'docs', (s) => s.changeRequestId !== undefined, 'the first import');
    current = first.changeRequestId;
    await waitFor(async () => {
      await approve();
      return (await state.get('docs')).lastMerge !== undefined || undefined;
    }, 'the first import, merged');
    await pollSpaceKind.enqueue(daemon.queues, { mapping: 'docs' }, { reason: 'merged' });
    await stateWhere(state, 'docs', (s) => s.exportBase !== undefined, 'the merge seen by the space poll');

    await repo.git('pull', '--quiet', '--ff-only', 'origin', 'main');
    const commit = await repo.commit({ 'docs/README.md': '# Welcome\n\nWritten in git.\n' }, 'Edit in git');
    await repo.push();
    const opened = await stateWhere(
      state,
      'docs',
      (s) => s.lastImportedSha === commit && s.lastImport?.result === 'imported',
      'the commit imported',
    );
    current = opened.changeRequestId;

    // The edit, not yet seen by the space poll; the reviewer approves whatever comes.
    const edit = editInService(emulator.emulator, { spaceId: space }, (pages) => {
      findPage(pages, 'notes.md').markdown = '# Notes\n\nWritten in the service.\n';
    }).id;
    await waitFor(async () => {
      await approve();
      return (
        completedRuns(daemon.lines, 'merge-change-request').some(
          (line) => line.result === 'deferred' && line.revision === edit,
        ) || undefined
      );
    }, 'the merge deferred until the export');
    expect((await state.get('docs')).lastMerge?.changeRequest.id).not.toBe(current);

    await pollSpaceKind.enqueue(daemon.queues, { mapping: 'docs' }, { reason: 'test' });
    await stateWhere(state, 'docs', (s) => s.lastExport?.revision === edit, 'the export of the edit');
    // Exported, the edit is in git: the change request (whose base holds it) is merged now.
    await waitFor(async () => {
      await approve();
      return (await state.get('docs')).lastMerge?.changeRequest.id === current || undefined;
    }, 'the merge after the export');
    expect(await repo.git('--git-dir', repo.remote, 'show', 'main:docs/notes.md')).toBe(
      '# Notes\n\nWritten in the service.',
    );
    const pages = await callApi<unknown>(
      `${emulator.baseUrl}/spaces/${space}/content/pages?format=markdown`,
      emulator.tokens.admin,
    );
    const text = JSON.stringify(pages.body);
    expect(text).toContain('Written in the service.');
    expect(text).toContain('Written in git.');
  });
});
