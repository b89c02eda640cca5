// Two mappings of one repository, each its own folder, polled by a daemon: one job a tick polls
// both, with one look at the repository (one ls-remote, no fetch while nothing changes), and a
// push costs one fetch for both. The git processes are counted by a git on PATH
// that logs its command lines.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { closeAfter } from '../../support/close-after.js';
import { gitCallLog, gitSubcommand } from '../../support/git-call-log.js';
import { createTestRepo } from '../../support/git-repos.js';
import { completedRuns, nextRuns } from '../../support/job-runs.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { stateWhere } from '../../support/state-where.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';

const TICKS = 3;

describe('the git polls of two mappings of one repository', () => {
  it('make one look per tick, and one fetch for a push', { timeout: 60_000 }, async () => {
    const repo = await createTestRepo();
    await repo.commit({ 'docs-a/README.md': '# A\n', 'docs-b/README.md': '# B\n' }, 'Two folders');
    await repo.push();
    const emulator = await startTestEmulator();
    const spaces = [await createTestSpace(emulator, 'A'), await createTestSpace(emulator, 'B')];
    // The daemon's mirrors run git with this process's environment: this file's own process.
    const git = await gitCallLog();
    const path = process.env.PATH;
    process.env.PATH = git.path;
    closeAfter(() => {
      process.env.PATH = path;
    });
    const prefix = uniquePrefix('shared-repository');
    const state = new RedisMappingStateStore(testRedis(prefix), prefix);
    const daemon = await startTestDaemon({
      prefix,
      jobs: JOBS,
      service: emulator,
      yaml: `mappings:
  - { name: a, space: ${spaces[0]}, git: { repo: ${repo.remote}, branch: main, dir: docs-a, poll: 1s }, changeRequest: { poll: 1h } }
  - { name: b, space: ${spaces[1]}, git: { repo: ${repo.remote}, branch: main, dir: docs-b, poll: 1s }, changeRequest: { poll: 1h } }
`,
    });
    for (const mapping of ['a', 'b'])
      await stateWhere(
        state,
        mapping,
        (s) => s.lastImportedSha !== undefined,
        `the first import of ${mapping}`,
      );
    // A tick or two to settle (the mirror's heads read once after its fetch), then whole ticks counted.
    await nextRuns([daemon.lines], 'poll-git', 4);
    const calls = async () => (await git.calls()).map(gitSubcommand);
    const before = (await calls()).length;
    const polled = completedRuns(daemon.lines, 'poll-git').length;
    await nextRuns([daemon.lines], 'poll-git', 2 * TICKS);
    const polls = completedRuns(daemon.lines, 'poll-git').length - polled;
    const idle = (await calls()).slice(before);
    expect(idle.filter((call) => call === 'fetch')).toEqual([]);
    // One job a tick for both mappings, and one look per job (a tick cut by the counting's edges
    // counts whole).
    const looks = idle.filter((call) => call === 'ls-remote').length;
    expect(looks).toBeGreaterThan(0);
    expect(looks).toBeLessThanOrEqual(polls + 1);
    const repositoryPolls = daemon.lines.filter(
      (line) => line.msg === 'job completed' && String(line.job).startsWith('repeat:poll-git/repo.'),
    );
    expect(repositoryPolls.length).toBeGreaterThanOrEqual(polls);

    const pushed = await repo.commit({ 'docs-a/new.md': '# New\n' }, 'A new page in a');
    const fetchesBefore = (await calls()).filter((call) => call === 'fetch').length;
    await repo.push();
    await stateWhere(state, 'a', (s) => s.lastImportedSha === pushed, 'the import of the push');
    // Both mappings' polls saw the push (b's folder did not change: nothing to import).
    await nextRuns([daemon.lines], 'poll-git', 4);
    expect((await calls()).filter((call) => call === 'fetch').length - fetchesBefore).toBe(1);
  });
});
