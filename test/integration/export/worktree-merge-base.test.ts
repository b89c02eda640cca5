// Two-way with a watched working copy: a save is imported and merged before its commit exists, so
// the merge names no commit and space to git keeps its older base. Once the commit of those same
// files is pushed, the git poll finds it unchanged, names it in the merged revision's origin, and
// the space poll takes it as the base its exports compare git with.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateWhere } from '../../support/state-where.js';
import { startTwoWay } from '../../support/two-way-world.js';
import { waitFor } from '../../support/wait-for.js';

describe('a save merged before its commit is pushed', () => {
  it('takes that commit as the export base once the git poll finds it', { timeout: 90_000 }, async () => {
    const { repo, first, state, pollSpace } = await startTwoWay({
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
    await waitFor(
      async () => {
        if ((await state.get('docs')).exportBase === commit) return true;
        if (Date.now() - queuedAt > 1000) {
          queuedAt = Date.now();
          await pollSpace();
        }
        return undefined;
      },
      'the commit of the saved files taken as the export base',
      30_000,
    );
    expect((await state.get('docs')).lastImport).toMatchObject({
      source: 'git',
      sha: commit,
      result: 'unchanged',
    });
  });
});
