// Two-way: a writer's edit is queued for export, which fails; meanwhile a person merges docsync's
// change request (opened earlier), so the space's revision is a merge of docsync's content, yet it
// holds the edit git does not. A commit found then must wait for that
// export: imported at once, its change request would be made on content holding the edit and filled
// with git's folder without it, and its merge would undo the edit.
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
import { refuseTokenFor } from '../../support/token-fix.js';
import { waitFor } from '../../support/wait-for.js';

/** A reviewer who approves each revision of the change request until it is merged. */
function approveUntilMerged(
  emulator: TestEmulator,
  space: string,
  state: RedisMappingStateStore,
  cr: string,
) {
  return waitFor(async () => {
    if ((await state.get('docs')).lastMerge?.changeRequest.id === cr) return true;
    const now = emulator.emulator.state.changeRequests[cr];
    const approved = Object.values(emulator.emulator.state.reviews).some(
      (review) => review.changeRequestId === cr && review.revision === now?.revision,
    );
    if (now?.status === 'open' && !approved) {
      const answer = await callApi(
        `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}/reviews`,
        emulator.tokens.reviewer,
        'POST',
        { status: 'approved' },
      );
      expect(answer.status).toBe(201);
    }
    return undefined;
  }, `the merge of ${cr}`);
}

describe('a commit found while an export is queued', () => {
  it('is imported after the export, even when the space moved on to a merge of docsync', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await createTestRepo();
    await repo.commit({ 'docs/README.md': '# Welcome\n', 'docs/notes.md': '# Notes\n' }, 'Write the docs');
    await repo.push();
    const prefix = uniquePrefix('queued-export');
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
    const first = await stateWhere(state, 'docs', (s) => s.changeRequestId !== undefined, 'the first import');
    await approveUntilMerged(emulator, space, state, String(first.changeRequestId));
    await pollSpaceKind.enqueue(daemon.queues, { mapping: 'docs' }, { reason: 'merged' });
    await stateWhere(state, 'docs', (s) => s.exportBase !== undefined, 'the merge seen by the space poll');

    // docsync's change request for a commit, left open.
    await repo.git('pull', '--quiet', '--ff-only', 'origin', 'main');
    const one = await repo.commit({ 'docs/README.md': '# Welcome\n\nOne.\n' }, 'One');
    await repo.push();
    const opened = await stateWhere(
      state,
      'docs',
      (s) => s.lastImportedSha === one && s.lastImport?.result === 'imported',
      'the commit imported',
    );
    const cr = String(opened.changeRequestId);

    // The edit, queued for an export that fails: the service refuses the export's read for now.
    const refusal = await refuseTokenFor(emulator, 'GET', '/spaces/[^/]+/content$');
    const edit = editInService(emulator.emulator, { spaceId: space }, (pages) => {
      findPage(pages, 'notes.md').markdown = '# Notes\n\nWritten in the service.\n';
    }).id;
    await pollSpaceKind.enqueue(daemon.queues, { mapping: 'docs' }, { reason: 'test' });
    await stateWhere(state, 'docs', (s) => s.exportQueued === edit, 'the export queued');
    // A person merges docsync's change request meanwhile (docsync's own merge waits for the export):
    // the space is at a merge of docsync's content, holding the edit.
    const merged = await callApi(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}/merge`,
      emulator.tokens.admin,
      'POST',
    );
    expect(merged.status).toBe(200);

    const two = await repo.commit({ 'docs/README.md': '# Welcome\n\nTwo.\n' }, 'Two');
    await repo.push();
    await waitFor(
      () =>
        completedRuns(daemon.lines, 'import-content').some(
          (line) => line.result === 'deferred' && line.waitingFor === 'export',
        ) || undefined,
      'the import of the commit deferred until the export',
    );
    expect((await state.get('docs')).lastImportedSha).not.toBe(two);

    // Fixed: the space poll, finding the space at docsync's merge, queues the export again.
    await refusal.accept();
    await pollSpaceKind.enqueue(daemon.queues, { mapping: 'docs' }, { reason: 'test' });
    const after = await waitFor(async () => {
      const current = await state.get('docs');
      return current.exportFinished === edit &&
        current.lastImportedSha !== one &&
        current.lastImport?.result === 'imported'
        ? current
        : undefined;
    }, 'the export, then the branch imported');
    await approveUntilMerged(emulator, space, state, String(after.changeRequestId));
    expect(await repo.git('--git-dir', repo.remote, 'show', 'main:docs/notes.md')).toBe(
      '# Notes\n\nWritten in the service.',
    );
    const pages = await callApi<unknown>(
      `${emulator.baseUrl}/spaces/${space}/content/pages?format=markdown`,
      emulator.tokens.admin,
    );
    const text = JSON.stringify(pages.body);
    expect(text).toContain('Written in the service.');
    expect(text).toContain('Two.');
  });
});
