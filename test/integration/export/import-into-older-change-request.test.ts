// Two-way: docsync's change request was opened before a writer's edit, which the export then brought
// to git. The next import into that change request holds the edit as git does: made on the old base,
// it would seem to change the edited page too, and a second edit of that page in the service would
// then be undone by the merge (the change request's version of a page changed on both sides wins).
// The import brings the change request up to the main content first, so both edits survive.
import { describe, expect, it } from 'vitest';
import { editInService, findPage } from '../../support/service-content.js';
import { stateWhere } from '../../support/state-where.js';
import { startTwoWay } from '../../support/two-way-world.js';

const appendToNotes = (line: string) => (pages: Parameters<Parameters<typeof editInService>[2]>[0]) => {
  const notes = findPage(pages, 'notes.md');
  notes.markdown = `${notes.markdown.trimEnd()}\n\n${line}\n`;
};

describe('an import into a change request opened before an exported edit', () => {
  it('keeps a later edit of the same page through the merge', async () => {
    const { emulator, space, state, pollSpace, approveUntilMerged, commitReadme, spaceText } =
      await startTwoWay({
        name: 'older-cr',
        approvals: 1,
      });

    // A commit in git: docsync opens its change request on the main content of now.
    const commit = await commitReadme('# Welcome\n\nWritten in git.\n', 'Edit in git');
    const opened = await stateWhere(
      state,
      'docs',
      (s) => s.lastImportedSha === commit && s.lastImport?.result === 'imported',
      'the commit imported into a new change request',
    );
    const cr = String(opened.changeRequestId);

    // A writer's edit, exported: git's branch now holds it, the change request's base does not.
    const edit = editInService(emulator.emulator, { spaceId: space }, appendToNotes('First edit.')).id;
    await pollSpace();
    await stateWhere(state, 'docs', (s) => s.lastExport?.revision === edit, 'the export');
    // A person commits on top of the export: its import holds the edit, as the branch does.
    const next = await commitReadme('# Welcome\n\nWritten in git, twice.\n', 'Again');
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
    await pollSpace();
    await approveUntilMerged(cr);
    const text = await spaceText();
    expect(text).toContain('Written in git, twice.');
    expect(text).toContain('First edit.');
    expect(text).toContain('Second edit.');
  });
});
