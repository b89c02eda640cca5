// Two-way: docsync's change request was opened before a writer's edit, which the export then brought
// to git. The next import into that change request holds the edit as git does: made on the old base,
// it would seem to change the edited page too, and a second edit of that page in the service would
// then be undone by the merge (the change request's version of a page changed on both sides wins).
// The import brings the change request up to the main content first, so both edits survive.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { pollSpaceKind } from '../../../src/queue/kinds/poll-space-kind.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { createTestRepo } from '../../support/git-repos.js';
import { editInService, findPage } from '../../support/service-content.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { stateWhere } from '../../support/state-where.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const appendToNotes = (line: string) => (pages: Parameters<Parameters<typeof editInService>[2]>[0]) => {
  const notes = findPage(pages, 'notes.md');
  notes.markdown = `${notes.markdown.trimEnd()}\n\n${line}\n`;
};

describe('an import into a change request opened before an exported edit', () => {
  it('keeps a later edit of the same page through the merge', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await createTestRepo();
    await repo.commit({ 'docs/README.md': '# Welcome\n', 'docs/notes.md': '# Notes\n' }, 'Write the docs');
    await repo.push();
    const prefix = uniquePrefix('older-cr');
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
    const approve = async (cr: string) => {
      const answer = await callApi(
        `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}/reviews`,
        emulator.tokens.reviewer,
        'POST',
        { status: 'approved' },
      );
      expect(answer.status).toBe(201);
    };
    const first = await stateWhere(state, 'docs', (s) => s.changeRequestId !== undefined, 'the first import');
    await approve(String(first.changeRequestId));
    await stateWhere(state, 'docs', (s) => s.lastMerge !== undefined, 'the first import, merged');
    await pollSpaceKind.enqueue(daemon.queues, { mapping: 'docs' }, { reason: 'merged' });
    await stateWhere(state, 'docs', (s) => s.exportBase !== undefined, 'the merge seen by the space poll');

    // A commit in git: docsync opens its change request on the main content of now.
    await repo.git('pull', '--quiet', '--ff-only', 'origin', 'main');
    const commit = await repo.commit({ 'docs/README.md': '# Welcome\n\nWritten in git.\n' }, 'Edit in git');
    await repo.push();
    const opened = await stateWhere(
      state,
      'docs',
      (s) => s.lastImportedSha === commit && s.lastImport?.result === 'imported',
      'the commit imported into a new change request',
    );
    const cr = String(opened.changeRequestId);

    // A writer's edit, exported: git's branch now holds it, the change request's base does not.
    const edit = editInService(emulator.emulator, { spaceId: space }, appendToNotes('First edit.')).id;
    await pollSpaceKind.enqueue(daemon.queues, { mapping: 'docs' }, { reason: 'test' });
    await stateWhere(state, 'docs', (s) => s.lastExport?.revision === edit, 'the export');
    // A person commits on top of the export: its import holds the edit, as the branch does.
    await repo.git('pull', '--quiet', '--ff-only', 'origin', 'main');
    const next = await repo.commit({ 'docs/README.md': '# Welcome\n\nWritten in git, twice.\n' }, 'Again');
    await repo.push();
    await stateWhere(
      state,
      'docs',
      (s) => s.lastImportedSha === next && s.lastImport?.result === 'imported',
      'the next commit imported into the same change request',
    );
    expect((await state.get('docs')).changeRequestId).toBe(cr);

    // The same page edited again in the service, then the change request approved and merged: once
    // the edit is exported (a merge waits for that), and updated from the main content first
    // (autoUpdate: before-merge); the reviewer approves each revision it gets.
    editInService(emulator.emulator, { spaceId: space }, appendToNotes('Second edit.'));
    await pollSpaceKind.enqueue(daemon.queues, { mapping: 'docs' }, { reason: 'test' });
    await waitFor(async () => {
      if ((await state.get('docs')).lastMerge?.changeRequest.id === cr) return true;
      const now = emulator.emulator.state.changeRequests[cr];
      const approved = Object.values(emulator.emulator.state.reviews).some(
        (review) => review.changeRequestId === cr && review.revision === now?.revision,
      );
      if (now?.status === 'open' && !approved) await approve(cr);
      return undefined;
    }, 'the merge');
    const pages = await callApi<unknown>(
      `${emulator.baseUrl}/spaces/${space}/content/pages?format=markdown`,
      emulator.tokens.admin,
    );
    const text = JSON.stringify(pages.body);
    expect(text).toContain('Written in git, twice.');
    expect(text).toContain('First edit.');
    expect(text).toContain('Second edit.');
  });
});
