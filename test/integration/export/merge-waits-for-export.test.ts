// Two-way: a writer edits the space while docsync's change request waits for its review. Brought up
// to date before the merge, the change request's base holds the edit; merged then, the edit would be
// in a revision of docsync's, which the space poll does not export, and the next import would take it
// out of the service again. The merge waits for the edit's export, and nothing is lost.
import { describe, expect, it } from 'vitest';
import { completedRuns } from '../../support/job-runs.js';
import { stateWhere } from '../../support/state-where.js';
import { startTwoWay } from '../../support/two-way-world.js';
import { waitFor } from '../../support/wait-for.js';

describe('a service edit while docsync’s change request waits for its review', () => {
  it('merges only after the edit is exported, and loses neither side', async () => {
    const { repo, state, daemon, pollSpace, approve, writeNotes, commitReadme, spaceText } =
      await startTwoWay({
        name: 'merge-waits',
        approvals: 1,
      });
    let current: string | undefined;
    const commit = await commitReadme('# Welcome\n\nWritten in git.\n', 'Edit in git');
    const opened = await stateWhere(
      state,
      'docs',
      (s) => s.lastImportedSha === commit && s.lastImport?.result === 'imported',
      'the commit imported',
    );
    current = opened.changeRequestId;

    // The edit, not yet seen by the space poll; the reviewer approves whatever comes.
    const edit = writeNotes('# Notes\n\nWritten in the service.\n');
    await waitFor(async () => {
      if (current !== undefined) await approve(current);
      return (
        completedRuns(daemon.lines, 'merge-change-request').some(
          (line) => line.result === 'deferred' && line.revision === edit,
        ) || undefined
      );
    }, 'the merge deferred until the export');
    expect((await state.get('docs')).lastMerge?.changeRequest.id).not.toBe(current);

    await pollSpace();
    await stateWhere(state, 'docs', (s) => s.lastExport?.revision === edit, 'the export of the edit');
    // Exported, the edit is in git: the change request (whose base holds it) is merged now.
    await waitFor(async () => {
      if (current !== undefined) await approve(current);
      return (await state.get('docs')).lastMerge?.changeRequest.id === current || undefined;
    }, 'the merge after the export');
    await pollSpace();
    expect(await repo.git('--git-dir', repo.remote, 'show', 'main:docs/notes.md')).toBe(
      '# Notes\n\nWritten in the service.',
    );
    const text = await spaceText();
    expect(text).toContain('Written in the service.');
    expect(text).toContain('Written in git.');

    // The space equals the export's commit after that merge: a next edit of the same page is the
    // space's change alone, not a conflict with the export docsync made itself.
    await stateWhere(state, 'docs', (s) => s.lastSeenRevision !== edit, 'the merge seen by the space poll');
    const again = writeNotes('# Notes\n\nWritten in the service, twice.\n');
    await pollSpace();
    const exported = await stateWhere(
      state,
      'docs',
      (s) => s.lastExport?.revision === again,
      'the next export',
    );
    expect(exported.lastExport?.result).toBe('committed');
    expect(await repo.git('--git-dir', repo.remote, 'show', 'main:docs/notes.md')).toBe(
      '# Notes\n\nWritten in the service, twice.',
    );
  });
});
