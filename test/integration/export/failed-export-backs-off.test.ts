// An export that failed for good is not queued again on every space poll: the poll queues it again
// only as its back-off allows (2 s, doubling), while /status shows the failure, its next try and
// `docsync retry`; that retry, once the cause is fixed, runs it at once.
import { describe, expect, it } from 'vitest';
import { backOffLines, nextTryAhead, retryMappingDocs, triesOf } from '../../support/back-off.js';
import { nextRuns } from '../../support/job-runs.js';
import { stateWhere } from '../../support/state-where.js';
import {
  editReadme,
  exportTokenFixWorld,
  FIX_TO_DONE_MS,
  failedRun,
  refuseTokenFor,
  startWithRightToken,
} from '../../support/token-fix.js';

const setUp = () => exportTokenFixWorld('export-backs-off');

/** Space polls watched: 15 s of a 1 s poll, each of which once queued the failed export again. */
const POLLS = 15;

/** At the back-off's shortest waits (1, 2, 4, 8 s), a 6th try comes 31 s after the first. */
const MOST_TRIES = 5;

describe('an export that fails for good', () => {
  it('waits out its back-off between tries, shows it in /status, and runs at once on docsync retry', async () => {
    const { emulator, space, repo, state, setup } = await setUp();
    const daemon = await startWithRightToken(setup);
    await stateWhere(state, 'docs', (s) => s.lastExport !== undefined, 'the first look at the space');

    // The service refuses the export's read of the content; the space poll still reads the space.
    const refusal = await refuseTokenFor(emulator, 'GET', '/spaces/[^/]+/content$');
    const before = triesOf(daemon.lines, 'export-space');
    const edit = editReadme(emulator, space);
    await failedRun(daemon, 'export-space');

    await nextRuns([daemon.lines], 'poll-space', POLLS, 40_000);
    const tries = triesOf(daemon.lines, 'export-space') - before;
    expect(tries).toBeGreaterThanOrEqual(2);
    expect(tries).toBeLessThanOrEqual(MOST_TRIES);
    expect(backOffLines(daemon.lines).map((line) => line.failures)).toEqual(
      Array.from({ length: tries }, (_, index) => index + 1),
    );
    // Not lost meanwhile: still the export the space poll waits on.
    expect((await state.get('docs')).exportQueued).toBe(edit);

    // /status names the failed export, its next try and what to do.
    const nextTry = await nextTryAhead(state, 'export-space', 5000);
    const status = (await (await fetch(`${daemon.httpAddress}/status`)).json()) as {
      summary: { problems: { name: string; job?: string; nextTry?: string; hint?: string }[] };
    };
    const problem = status.summary.problems.find((entry) => entry.name === 'docs');
    expect(problem?.job).toBe('export-space');
    expect(problem?.nextTry).toBe(nextTry);
    expect(problem?.hint).toContain('docsync retry --mapping docs tries it now');

    await refusal.accept();
    const retried = await retryMappingDocs(setup);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toMatch(/^retried export:export\//m);
    const exported = await stateWhere(
      state,
      'docs',
      (s) => s.lastExport?.revision === edit && s.failures?.['export-space'] === undefined,
      'the export after docsync retry',
      FIX_TO_DONE_MS,
    );
    expect(exported.lastExport?.result).toBe('committed');
    expect(Date.parse(exported.lastExport?.at ?? '')).toBeLessThan(Date.parse(nextTry));
    expect(await repo.git('--git-dir', repo.remote, 'show', 'main:docs/README.md')).toBe(
      '# Welcome\n\nWelcome aboard.',
    );
  }, 120_000);
});
