// Two-way: the import of a person's commit was queued before docsync's export of a service edit,
// and runs after it: the export's commit is on top of the person's, and only it holds both. Imported
// as it is, the person's commit would take the edit out of the service again; the import takes the
// export's commit instead, and neither side is lost.
import { describe, expect, it } from 'vitest';
import { importContentKind } from '../../../jobs/import-content/import-content-kind.js';
import { completedRuns } from '../../support/job-runs.js';
import { stateWhere } from '../../support/state-where.js';
import { startTwoWay } from '../../support/two-way-world.js';
import { waitFor } from '../../support/wait-for.js';

describe('an import queued before an export of the space, run after it', () => {
  it('imports the export’s commit, which holds the person’s change and the edit', {
    timeout: 90_000,
  }, async () => {
    const { space, repo, state, daemon, pollSpace, writeNotes, commitReadme, spaceText } = await startTwoWay({
      name: 'below-export',
      approvals: 0,
    });
    const edit = writeNotes('# Notes\n\nWritten in the service.\n');
    const commit = await commitReadme('# Welcome\n\nWritten in git.\n', 'Edit in git');
    await waitFor(
      () =>
        completedRuns(daemon.lines, 'import-content').some((line) => line.result === 'deferred') || undefined,
      'the import of the commit deferred until the export',
    );
    await pollSpace();
    const exported = await stateWhere(state, 'docs', (s) => s.lastExport?.revision === edit, 'the export');
    const exportCommit = String(exported.lastExport?.sha);
    expect(await repo.git('--git-dir', repo.remote, 'rev-parse', `${exportCommit}~1`)).toBe(commit);

    // The person's commit, queued again as a retry or a slow poll would have it.
    await importContentKind.enqueue(
      daemon.queues,
      {
        source: 'git',
        mapping: 'docs',
        space,
        sha: commit,
        commit: { sha: commit, subject: 'Edit in git', authorName: 'Test' },
      },
      { reason: 'test' },
    );
    // The git poll may import the export's commit first (it is on the branch): then this import
    // finds that content imported already. Either way the export's commit is what the space holds.
    await waitFor(
      async () => {
        if ((await state.get('docs')).lastImportedSha !== exportCommit) return undefined;
        const text = await spaceText();
        return text.includes('Written in the service.') && text.includes('Written in git.');
      },
      "the export's commit imported and merged",
      // An import, its link check, a change request poll and a merge, one after the other.
      45_000,
    );
    expect((await state.get('docs')).lastImportedSha).toBe(exportCommit);
    // The person's commit itself was never imported: it would have taken the edit out of the space.
    const importedShas = completedRuns(daemon.lines, 'import-content')
      .filter((line) => line.result === 'imported')
      .map((line) => line.sha);
    expect(importedShas).toContain(exportCommit);
    expect(importedShas).not.toContain(commit);
  });
});
