// Issue 19: a full cycle with three docsync processes on one Redis (a commit imported, approved and
// merged; an edit in the service exported to git; the spec changed and refreshed) happens once: one
// change request, one import, one merge, one export commit and one upload, whichever processes
// ran the steps, and no two jobs of one space wrote to it at once.
import { describe, expect, it } from 'vitest';
import { startProcessesWorld } from '../../support/processes-world.js';
import { lockProblems } from '../../support/space-write-spans.js';
import { tickRuns } from '../../support/tick-runs.js';
import { waitFor } from '../../support/wait-for.js';

const CREATE = 'POST /v1/spaces/:s/change-requests';
const IMPORT = 'POST /v1/spaces/:s/change-requests/:cr/content/import';
const MERGE = 'POST /v1/spaces/:s/change-requests/:cr/merge';
const UPLOAD = 'PUT /v1/orgs/:o/openapi/:slug';
/** Three processes starting at once on two shared cores, then polls every second. */
const SETTLE_MS = 90_000;

describe('a full cycle with three docsync processes', () => {
  it('imports, merges, exports and refreshes once', async () => {
    const world = await startProcessesWorld({ name: 'cycle', doors: 3, approvals: 1, writeDelayMs: 50 });
    const { logged, state } = world;
    const processes = await world.start(3);
    const approveUntil = (what: string, done: () => Promise<boolean>) =>
      waitFor(
        async () => {
          if (await done()) return true;
          await world.approveOpen('both');
          await world.approveOpen('oneway');
          return undefined;
        },
        what,
        SETTLE_MS,
      );
    // The first imports merged and seen by the space poll; the spec uploaded once.
    await approveUntil('the first merges', async () => {
      const [both, oneway] = [await state.get('both'), await state.get('oneway')];
      return both.exportBase !== undefined && oneway.lastMerge !== undefined;
    });
    await waitFor(() => logged.count(UPLOAD) >= 1, 'the first upload', SETTLE_MS);

    const since = Date.now();
    const sha = await world.commit('both', 'cycle-commit');
    await approveUntil('the commit imported and merged', async () => {
      const now = await state.get('both');
      return (
        now.lastImportedSha === sha &&
        now.lastMerge?.changeRequest.id === now.changeRequestId &&
        now.exportBase === sha
      );
    });
    const edit = world.editInService('cycle-edit');
    const exported = await waitFor(
      async () => {
        const last = (await state.get('both')).lastExport;
        return last?.revision === edit ? last : undefined;
      },
      'the export of the edit',
      SETTLE_MS,
    );
    expect(exported.result).toBe('committed');
    await world.writeSpec('1.1.0');
    await waitFor(() => logged.count(UPLOAD, since) >= 1, 'the upload of the changed spec', SETTLE_MS);
    // Three more ticks of every poll: any step done twice would show by then.
    const quiet = Date.now();
    await waitFor(
      () =>
        ['poll-git/both', 'poll-change-requests/both', 'poll-space/both'].every(
          (scheduler) => tickRuns(processes.lines(), scheduler, quiet).length >= 3,
        ),
      'three more polls of each kind',
      SETTLE_MS,
    );

    const space = world.spaces.both;
    const written = (route: string) =>
      logged.requests.filter(
        (request) =>
          request.route === route &&
          request.space === space &&
          request.door !== undefined &&
          request.start >= since &&
          request.status < 300,
      ).length;
    expect({ created: written(CREATE), imported: written(IMPORT), merged: written(MERGE) }).toEqual({
      created: 1,
      imported: 1,
      merged: 1,
    });
    expect(logged.count(UPLOAD, since)).toBe(1);
    const commits = await world.exportedRevisions();
    expect(commits).toEqual([edit]);
    const completed = (name: string, result: string) =>
      processes
        .lines()
        .filter(
          (line) =>
            line.msg === 'job completed' &&
            line.name === name &&
            line.result === result &&
            line.lockKey === space &&
            Date.parse(String(line.time)) >= since,
        );
    expect(completed('import-content', 'imported').map((line) => line.sha)).toEqual([sha]);
    expect(completed('export-space', 'committed')).toHaveLength(1);
    // An import taken by a process whose mirror had not fetched the commit yet failed for good
    // before run-import fetched first.
    expect(processes.lines().filter((line) => line.msg === 'job failed permanently')).toEqual([]);

    const { problems, writingJobs } = lockProblems(
      logged.requests,
      logged.service.tokens.admin,
      processes.history.map(({ slot, run }) => ({ door: slot, lines: run.lines() })),
    );
    expect(problems.join('\n')).toBe('');
    expect(writingJobs).toBeGreaterThanOrEqual(4);
  }, 300_000);
});
