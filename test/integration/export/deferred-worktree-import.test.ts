// Two-way with a watched working copy: a save while the space holds an edit not yet in git waits for
// the export, then looks again by itself (no poll would bring a working copy's import back). The
// working copy does not hold the exported edit until its owner pulls: importing it before would take
// the edit out of the service again, so it waits for the pull, whose changed files import it.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completedRuns } from '../../support/job-runs.js';
import { callApi } from '../../support/start-test-emulator.js';
import { stateWhere } from '../../support/state-where.js';
import { startTwoWay } from '../../support/two-way-world.js';
import { waitFor } from '../../support/wait-for.js';

describe('a save while the space holds an unexported edit', () => {
  it('waits for the export, then for the pull, and loses neither side', { timeout: 90_000 }, async () => {
    const { emulator, space, repo, state, daemon, pollSpace, writeNotes } = await startTwoWay({
      name: 'deferred-worktree',
      approvals: 0,
      watch: true,
    });
    const edit = writeNotes('# Notes\n\nWritten in the service.\n');
    const imported = () =>
      completedRuns(daemon.lines, 'import-content').filter((line) => line.result === 'imported').length;
    const importedBefore = imported();
    await writeFile(join(repo.work, 'docs', 'README.md'), '# Welcome\n\nSaved in the working copy.\n');
    const deferred = (waitingFor: string) => () =>
      completedRuns(daemon.lines, 'import-content').filter((line) => line.waitingFor === waitingFor).length >
        0 || undefined;
    await waitFor(deferred('export'), 'the save deferred until the export');

    await pollSpace();
    await stateWhere(state, 'docs', (s) => s.lastExport?.revision === edit, 'the export of the edit');
    // Looked at again by itself: the working copy does not hold the export yet.
    await waitFor(deferred('pull'), 'the save deferred until the working copy is pulled');
    expect(
      daemon.lines.some((line) => line.level === 'warn' && String(line.msg).includes('pull the branch')),
    ).toBe(true);
    expect(imported()).toBe(importedBefore);

    await repo.git('stash', '--quiet');
    await repo.git('pull', '--quiet', '--ff-only', 'origin', 'main');
    await repo.git('stash', 'pop', '--quiet');
    // The pull changed files: the working copy is imported (the save is in no commit: only that
    // import can bring it). The git poll may import the export's commit too, before or after it:
    // what counts is that the space holds both sides at the end.
    const spaceText = async () =>
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
        const text = await spaceText();
        return text.includes('Written in the service.') && text.includes('Saved in the working copy.');
      },
      'the pulled working copy imported and merged',
      45_000,
    );
  });
});
