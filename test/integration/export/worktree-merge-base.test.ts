// Two-way with a watched working copy: a save is imported and merged before its commit exists, so
// the merge names no commit and space to git keeps its older base. Once the commit of those same
// files is pushed, the git poll finds it unchanged, names it in the merged revision's origin, and
// it becomes the base its exports compare git with; a person's edit after that is exported as ever.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateWhere } from '../../support/state-where.js';
import { startTwoWay } from '../../support/two-way-world.js';
import { waitFor } from '../../support/wait-for.js';

describe('a save merged before its commit is pushed', () => {
  it('takes that commit as the export base once the git poll finds it', { timeout: 90_000 }, async () => {
    const { repo, first, state, pollSpace, writeNotes } = await startTwoWay({
      name: 'worktree-merge-base',
      approvals: 0,
      watch: true,
    });
    const firstMerge = (await state.get('docs')).lastMerge?.revision;
    await writeFile(join(repo.work, 'docs', 'guide.md'), '# Guide\n\nSaved, then merged.\n');
    const merged = await stateWhere(
      state,
      'docs',
      (s) => s.lastMerge !== undefined && s.lastMerge.revision !== firstMerge,
      'the merge of the saved working copy',
    );
    const revision = merged.lastMerge?.revision;
    // Queued until a space poll has seen that merge: one already running absorbs a job queued now.
    let queuedAt = 0;
    const seen = await waitFor(async () => {
      const now = await state.get('docs');
      if (now.lastSeenRevision === revision) return now;
      if (Date.now() - queuedAt > 1000) {
        queuedAt = Date.now();
        await pollSpace();
      }
      return undefined;
    }, 'the space poll to see the merge');
    // The space holds the saved guide, which is in no commit yet.
    expect(seen.exportBase).toBe(first);

    const commit = await repo.commit({}, 'Add the guide');
    await repo.push();
    // No space poll is queued meanwhile: the import that finds the commit unchanged sets the base.
    const found = await stateWhere(
      state,
      'docs',
      (s) => s.lastImport?.sha === commit,
      'the git poll to find the commit of the saved files',
    );
    expect(found.lastImport).toMatchObject({ source: 'git', sha: commit, result: 'unchanged' });
    expect(found.exportBase).toBe(commit);
    expect(found.lastSeenRevision).toBe(revision);

    // The next edit in the service is an edit, not a new baseline: it is exported on that base.
    const edit = writeNotes('# Notes\n\nWritten in the service after the merge.\n');
    await waitFor(
      async () => {
        if ((await state.get('docs')).lastExport?.revision === edit) return true;
        if (Date.now() - queuedAt > 1000) {
          queuedAt = Date.now();
          await pollSpace();
        }
        return undefined;
      },
      'the export of the edit',
      30_000,
    );
  });
});
