// An edit made in the service while docsync's service token is wrong (401: the space poll fails)
// reaches git once the token is fixed, within a poll interval of the fix: with a restart on the
// right token, and without one when the service starts accepting the token.
import { describe, expect, it } from 'vitest';
import type { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import type { TestRepo } from '../../support/git-repos.js';
import {
  editReadme,
  exportTokenFixWorld,
  FIX_TO_DONE_MS,
  failedRun,
  refuseAdminToken,
  startWithRightToken,
  startWithWrongToken,
  stopDaemon,
} from '../../support/token-fix.js';
import { waitFor } from '../../support/wait-for.js';

const setUp = () => exportTokenFixWorld('export');

async function exportedAfterFix(state: RedisMappingStateStore, repo: TestRepo, revision: string) {
  const exported = await waitFor(
    async () => {
      const current = await state.get('docs');
      return current.lastExport?.revision === revision ? current : undefined;
    },
    'the export after the fix',
    FIX_TO_DONE_MS,
  );
  expect(exported.lastExport?.result).toBe('committed');
  expect(await repo.git('--git-dir', repo.remote, 'show', 'main:docs/README.md')).toBe(
    '# Welcome\n\nWelcome aboard.',
  );
}

describe('an edit in the service while the token is wrong', () => {
  it('reaches git after a restart with the right token', async () => {
    const { emulator, space, repo, state, setup } = await setUp();
    const wrong = await startWithWrongToken(setup);
    await failedRun(wrong, 'poll-space');
    const revision = editReadme(emulator, space);
    await stopDaemon(wrong);

    await startWithRightToken(setup);
    await exportedAfterFix(state, repo, revision);
  });

  it('reaches git, without a restart, once the service accepts the token', async () => {
    const { emulator, space, repo, state, setup } = await setUp();
    const refusal = refuseAdminToken(emulator);
    const daemon = await startWithRightToken(setup);
    await failedRun(daemon, 'poll-space');
    const revision = editReadme(emulator, space);

    refusal.accept();
    await exportedAfterFix(state, repo, revision);
  });
});
