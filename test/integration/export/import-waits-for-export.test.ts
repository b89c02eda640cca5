// Two-way: a writer edits the space while a person commits to git. The import of that commit must not
// undo the writer's edit (its change request is made from the space's content, then filled with git's
// folder, and merging it would put git's older page back): it waits until the space poll has exported
// the edit, then imports the branch holding both, and nothing is lost on either side.
import { describe, expect, it } from 'vitest';
import { completedRuns } from '../../support/job-runs.js';
import { callApi } from '../../support/start-test-emulator.js';
import { stateWhere } from '../../support/state-where.js';
import { startTwoWay } from '../../support/two-way-world.js';
import { waitFor } from '../../support/wait-for.js';

describe('a service edit and a git commit at once', () => {
  it('exports the edit before importing the commit, so neither is lost', { timeout: 90_000 }, async () => {
    const { emulator, space, repo, first, state, daemon, pollSpace, writeNotes, commitReadme } =
      await startTwoWay({
        name: 'import-waits',
        approvals: 0,
      });
    const edit = writeNotes('# Notes\n\nWritten in the service.\n');
    const commit = await commitReadme('# Welcome\n\nWritten in git.\n', 'Edit in git');
    // Two git polls find the commit and defer its import: the space's edit is not in git yet.
    await waitFor(
      () =>
        completedRuns(daemon.lines, 'import-content').filter((line) => line.result === 'deferred').length >=
          2 || undefined,
      'the import of the commit deferred twice',
    );
    expect((await state.get('docs')).lastImportedSha).not.toBe(commit);

    await pollSpace();
    const exported = await stateWhere(
      state,
      'docs',
      (s) => s.lastExport?.revision === edit,
      'the export of the edit',
    );
    expect(exported.lastExport).toMatchObject({ result: 'committed', keptFromGit: ['README.md'] });
    // The deferred import and the git poll's import of the export's commit may run in either order
    // (the later one finds the content imported): what counts is what the space holds at the end.
    const pagesText = async () =>
      JSON.stringify(
        (
          await callApi<unknown>(
            `${emulator.baseUrl}/spaces/${space}/content/pages?format=markdown`,
            emulator.tokens.admin,
          )
        ).body,
      );
    await waitFor(
      async () => {
        if ((await state.get('docs')).lastImportedSha === first) return undefined;
        const text = await pagesText();
        return text.includes('Written in the service.') && text.includes('Written in git.');
      },
      'the import of the branch with both edits, merged',
      45_000,
    );
    const merged = await state.get('docs');
    expect(await repo.git('--git-dir', repo.remote, 'show', 'main:docs/notes.md')).toBe(
      '# Notes\n\nWritten in the service.',
    );
    expect(await repo.git('--git-dir', repo.remote, 'show', 'main:docs/README.md')).toBe(
      '# Welcome\n\nWritten in git.',
    );
    const pages = await callApi<{ pages: Array<{ path: string; markdown?: string }> }>(
      `${emulator.baseUrl}/spaces/${space}/content/pages?format=markdown`,
      emulator.tokens.admin,
    );
    expect(merged.lastMerge).toBeDefined();
    expect(JSON.stringify(pages.body)).toContain('Written in the service.');
    expect(JSON.stringify(pages.body)).toContain('Written in git.');
  });
});
