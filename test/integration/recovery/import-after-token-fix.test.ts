// An import that failed on a wrong service token (401) runs again once the token is fixed, within
// a poll interval of the fix: with a restart on the right token, and without one when the service
// starts accepting the token. The failed job stays for people to read.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import type { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { completedRuns } from '../../support/job-runs.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
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

const setUp = () => importTokenFixWorld('import');

/** The import of `sha` ran after `fixedAt`, within the time the fix allows. */
async function importedAfterFix(state: RedisMappingStateStore, sha: string, fixedAt: number) {
  const imported = await waitFor(
    async () => {
      const current = await state.get('docs');
      return current.lastImportedSha === sha ? current : undefined;
    },
    'the import after the fix',
    FIX_TO_DONE_MS,
  );
  expect(Date.parse(imported.lastImport?.at ?? '')).toBeGreaterThanOrEqual(fixedAt - 1000);
  expect(imported.lastImport?.result).toBe('imported');
}

describe('an import failed on a wrong token', () => {
  it('runs again after a restart with the right token', async () => {
    const { sha, state, setup } = await setUp();
    const wrong = await startWithWrongToken(setup);
    const failure = await failedRun(wrong, 'import-content');
    expect(failure.job).toBe(`import/docs/${sha}`);
    await stopDaemon(wrong);

    const right = await startWithRightToken(setup);
    const fixedAt = Date.now();
    await importedAfterFix(state, sha, fixedAt);
    // The failed job is kept for people to read; the import ran as a new job of the same work.
    const import_ = right.queues.get('import');
    expect(await import_.getJobState(`import/docs/${sha}`)).toBe('failed');
    expect((await import_.getJob(`import/docs/${sha}`))?.failedReason).toMatch(/401/);
    const run = await waitFor(
      () => completedRuns(right.lines, 'import-content')[0],
      'the completed run of the import',
    );
    expect(run.job).toMatch(new RegExp(`^import/docs/${sha}/rerun-`));
  });

  it('runs again, without a restart, once the service accepts the token', async () => {
    const { emulator, sha, state, setup } = await setUp();
    const refusal = refuseAdminToken(emulator);
    const daemon = await startTestDaemon({
      prefix: setup.prefix,
      dataDir: setup.dataDir,
      jobs: JOBS,
      service: emulator,
      yaml: setup.yaml,
    });
    await failedRun(daemon, 'import-content');
    // The git poll goes on queuing the import meanwhile; it fails again while the token is refused.
    await stateWhere(state, 'docs', (s) => s.lastError !== undefined, 'the 401 in the state');

    refusal.accept();
    await importedAfterFix(state, sha, Date.now());
  });
});
