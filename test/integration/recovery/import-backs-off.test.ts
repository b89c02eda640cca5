// An import that fails again and again on a wrong service token is tried with a growing delay, not
// on every tick of the git poll that queues it; /status shows its next try; a restart with the
// right token, or `docsync retry` once the service accepts it, runs it at once, before that try.
import { describe, expect, it } from 'vitest';
import type { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { backOffLines, nextTryAhead, retryMappingDocs, triesOf } from '../../support/back-off.js';
import { completedRuns, nextRuns } from '../../support/job-runs.js';
import { stateWhere } from '../../support/state-where.js';
import {
  FIX_TO_DONE_MS,
  failedRun,
  importTokenFixWorld,
  refuseAdminToken,
  startWithRightToken,
  startWithWrongToken,
  stopDaemon,
} from '../../support/token-fix.js';
import { waitFor } from '../../support/wait-for.js';

const setUp = () => importTokenFixWorld('backs-off');

/** Git polls watched for tries of the import: 15 s of a 1 s poll, where each tick once queued a try. */
const POLLS = 15;

/**
 * The most tries the back-off allows while the polls run: at its shortest waits (1, 2, 4, 8 s after
 * the first try), the 6th comes 31 s after the first, past the polls watched.
 */
const MOST_TRIES = 5;

/** The import ran through before `nextTry`: something other than the back-off's end ran it. */
async function importedBefore(state: RedisMappingStateStore, sha: string, nextTry: string) {
  // Its success ends the import's failures in a row, and with them the next try /status showed.
  const imported = await stateWhere(
    state,
    'docs',
    (s) => s.lastImportedSha === sha && s.failures?.['import-content'] === undefined,
    'the import after the fix',
    FIX_TO_DONE_MS,
  );
  expect(imported.lastImport?.result).toBe('imported');
  expect(Date.parse(imported.lastImport?.at ?? '')).toBeLessThan(Date.parse(nextTry));
}

describe('an import failing again and again on a wrong token', () => {
  it('is tried with a growing delay, not on every poll, and at once after a restart with the right token', async () => {
    const { sha, state, setup } = await setUp();
    const wrong = await startWithWrongToken(setup);
    await failedRun(wrong, 'import-content');

    await nextRuns([wrong.lines], 'poll-git', POLLS, 40_000);
    const tries = triesOf(wrong.lines, 'import-content');
    expect(tries).toBeGreaterThanOrEqual(2);
    expect(tries).toBeLessThanOrEqual(MOST_TRIES);
    // Each failure in a row waits longer than the one before it.
    const failures = backOffLines(wrong.lines);
    const waits = failures.map((line) => Date.parse(String(line.nextTry)) - Date.parse(String(line.time)));
    expect(failures.map((line) => line.failures)).toEqual(failures.map((_, index) => index + 1));
    expect(waits.at(-1)).toBeGreaterThan(waits[0] ?? 0);

    // /status says when it is tried next, and how to have it tried now.
    const nextTry = await nextTryAhead(state, 'import-content', 5000);
    const status = (await (await fetch(`${wrong.httpAddress}/status`)).json()) as {
      summary: { problems: { name: string; job?: string; nextTry?: string; hint?: string }[] };
    };
    const problem = status.summary.problems.find((entry) => entry.name === 'docs');
    expect(problem?.job).toBe('import-content');
    expect(Date.parse(problem?.nextTry ?? '')).toBeGreaterThan(Date.now());
    expect(problem?.hint).toContain('docsync retry --mapping docs tries it now');
    await stopDaemon(wrong);

    await startWithRightToken(setup);
    await importedBefore(state, sha, nextTry);
  }, 120_000);

  it('runs at once on docsync retry once the service accepts the token', async () => {
    const { emulator, sha, state, setup } = await setUp();
    const refusal = refuseAdminToken(emulator);
    const daemon = await startWithRightToken(setup);
    await failedRun(daemon, 'import-content');
    const nextTry = await nextTryAhead(state, 'import-content', 5000);
    // The token is fixed in the service: without a retry, the import would wait for its next try.
    refusal.accept();
    const before = completedRuns(daemon.lines, 'import-content').length;

    const retried = await retryMappingDocs(setup);
    expect(retried.code).toBe(0);
    expect(retried.stdout).toMatch(new RegExp(`^retried import:import/docs/${sha}`, 'm'));
    await importedBefore(state, sha, nextTry);
    await waitFor(
      () => completedRuns(daemon.lines, 'import-content').length > before || undefined,
      'the retried import to complete',
    );
  }, 120_000);
});
