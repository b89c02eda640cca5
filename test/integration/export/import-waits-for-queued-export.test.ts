// Two-way: a writer's edit is queued for export, which fails; meanwhile a person merges docsync's
// change request (opened earlier), so the space's revision is a merge of docsync's content, yet it
// holds the edit git does not. A commit found then must wait for that
// export: imported at once, its change request would be made on content holding the edit and filled
// with git's folder without it, and its merge would undo the edit.
import { describe, expect, it } from 'vitest';
import { completedRuns } from '../../support/job-runs.js';
import { callApi } from '../../support/start-test-emulator.js';
import { stateWhere } from '../../support/state-where.js';
import { refuseTokenFor } from '../../support/token-fix.js';
import { startTwoWay } from '../../support/two-way-world.js';
import { waitFor } from '../../support/wait-for.js';

describe('a commit found while an export is queued', () => {
  // Long enough for the export's back-off: up to 24 s after a fifth failure in a row.
  it('is imported after the export, even when the space moved on to a merge of docsync', {
    timeout: 90_000,
  }, async () => {
    const {
      emulator,
      space,
      repo,
      state,
      daemon,
      pollSpace,
      approveUntilMerged,
      writeNotes,
      commitReadme,
      spaceText,
    } = await startTwoWay({
      name: 'queued-export',
      approvals: 1,
    });

    // docsync's change request for a commit, left open.
    const one = await commitReadme('# Welcome\n\nOne.\n', 'One');
    const opened = await stateWhere(
      state,
      'docs',
      (s) => s.lastImportedSha === one && s.lastImport?.result === 'imported',
      'the commit imported',
    );
    const cr = String(opened.changeRequestId);

    // The edit, queued for an export that fails: the service refuses the export's read for now.
    const refusal = await refuseTokenFor(emulator, 'GET', '/spaces/[^/]+/content$');
    const edit = writeNotes('# Notes\n\nWritten in the service.\n');
    await pollSpace();
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

    // Fixed: the space poll, finding the space at docsync's merge, queues the export again once
    // the export's back-off is over (its next try, which /status shows).
    await refusal.accept();
    const nextTry = Date.parse((await state.get('docs')).failures?.['export-space']?.last.nextTry ?? '');
    expect(nextTry).not.toBeNaN();
    await waitFor(() => Date.now() >= nextTry || undefined, 'the next try of the export', 30_000);
    await pollSpace();
    const after = await waitFor(async () => {
      const current = await state.get('docs');
      return current.exportFinished === edit &&
        current.lastImportedSha !== one &&
        current.lastImport?.result === 'imported'
        ? current
        : undefined;
    }, 'the export, then the branch imported');
    await approveUntilMerged(String(after.changeRequestId));
    expect(await repo.git('--git-dir', repo.remote, 'show', 'main:docs/notes.md')).toBe(
      '# Notes\n\nWritten in the service.',
    );
    const text = await spaceText();
    expect(text).toContain('Written in the service.');
    expect(text).toContain('Two.');
  });
});
