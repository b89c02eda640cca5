// The update of an outdated change request, blocked by a wrong service token (401), runs once the
// token is fixed, within a poll interval of the fix: after a restart on the right token (the change
// request poll failed meanwhile), and without one when the service starts accepting the token for
// the update call again (the update job itself failed; it stays for people to read).
import { describe, expect, it } from 'vitest';
import type { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { completedRuns } from '../../support/job-runs.js';
import { callApi, type TestEmulator } from '../../support/start-test-emulator.js';
import {
  FIX_TO_DONE_MS,
  failedRun,
  refuseTokenFor,
  startWithRightToken,
  startWithWrongToken,
  stopDaemon,
  tokenFixWorld,
} from '../../support/token-fix.js';
import { waitFor } from '../../support/wait-for.js';

const setUp = () =>
  tokenFixWorld({
    name: 'update',
    files: { 'docs/README.md': '# Welcome\n', 'docs/install.md': '# Install\n' },
    yaml: (space, remote) => `mappings:
  - name: docs
    space: ${space}
    git: { repo: ${remote}, branch: main, dir: docs, poll: 1s }
    changeRequest: { poll: 1s, autoUpdate: always }
`,
  });

/** Another change request merged: the main content moves, and docsync's one is outdated. */
async function moveMainContent(emulator: TestEmulator, space: string): Promise<string> {
  const url = `${emulator.baseUrl}/spaces/${space}`;
  const other = await callApi<{ id: string }>(`${url}/change-requests`, emulator.tokens.reviewer, 'POST', {
    subject: 'someone else',
  });
  await callApi(`${url}/change-requests/${other.body.id}/merge`, emulator.tokens.reviewer, 'POST');
  return (await callApi<{ revision: string }>(url, emulator.tokens.reviewer)).body.revision;
}

function updatedAfterFix(emulator: TestEmulator, space: string, cr: string, main: string) {
  return waitFor(
    async () => {
      const now = await callApi<{ revisionMergedAncestor?: string }>(
        `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}`,
        emulator.tokens.reviewer,
      );
      return now.body.revisionMergedAncestor === main || undefined;
    },
    'the update after the fix',
    FIX_TO_DONE_MS,
  );
}

const keptChangeRequest = (state: RedisMappingStateStore) =>
  waitFor(async () => (await state.get('docs')).changeRequestId, 'the first import');

describe('an update of a change request refused for a wrong token', () => {
  it('runs after a restart with the right token', async () => {
    const { emulator, space, state, setup } = await setUp();
    const first = await startWithRightToken(setup);
    const cr = await keptChangeRequest(state);
    await stopDaemon(first);
    const main = await moveMainContent(emulator, space);

    const wrong = await startWithWrongToken(setup);
    await failedRun(wrong, 'poll-change-requests');
    await stopDaemon(wrong);

    const right = await startWithRightToken(setup);
    await updatedAfterFix(emulator, space, cr, main);
    await waitFor(() => completedRuns(right.lines, 'update-change-request')[0], 'the update run');
  });

  it('runs, without a restart, once the service accepts the token for the update again', async () => {
    const { emulator, space, state, setup } = await setUp();
    const daemon = await startWithRightToken(setup);
    const cr = await keptChangeRequest(state);
    const refusal = await refuseTokenFor(emulator, 'POST', '/change-requests/[^/]+/update$');
    const main = await moveMainContent(emulator, space);
    const failure = await failedRun(daemon, 'update-change-request');
    expect(failure.job).toMatch(new RegExp(`^update/${space}/${cr}/`));

    await refusal.accept();
    await updatedAfterFix(emulator, space, cr, main);
    // The failed job is kept for people to read; the update ran as a new job of the same work.
    expect(await daemon.queues.get('maintain').getJobState(String(failure.job))).toBe('failed');
  });
});
