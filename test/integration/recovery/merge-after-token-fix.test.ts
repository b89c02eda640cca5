// The merge of an approved change request, blocked by a wrong service token (401), runs once the
// token is fixed, within a poll interval of the fix: after a restart on the right token (the change
// request poll failed meanwhile), and without one when the service starts accepting the token for
// the merge call again (the merge job itself failed; it stays for people to read).
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
    name: 'merge',
    files: { 'docs/README.md': '# Welcome\n', 'docs/install.md': '# Install\n' },
    yaml: (space, remote) => `mappings:
  - name: docs
    space: ${space}
    git: { repo: ${remote}, branch: main, dir: docs, poll: 1s }
    changeRequest: { poll: 1s }
    merge: { enabled: true, approvals: 1 }
`,
  });

/** A reviewer approves the change request docsync keeps: the policy then merges it. */
async function approve(emulator: TestEmulator, space: string, cr: string): Promise<void> {
  const answer = await callApi(
    `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}/reviews`,
    emulator.tokens.reviewer,
    'POST',
    { status: 'approved' },
  );
  expect(answer.status).toBe(201);
}

function mergedAfterFix(emulator: TestEmulator, space: string, cr: string) {
  return waitFor(
    async () => {
      const now = await callApi<{ status: string }>(
        `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}`,
        emulator.tokens.reviewer,
      );
      return now.body.status === 'merged' || undefined;
    },
    'the merge after the fix',
    FIX_TO_DONE_MS,
  );
}

const keptChangeRequest = (state: RedisMappingStateStore) =>
  waitFor(async () => (await state.get('docs')).changeRequestId, 'the first import');

describe('a merge of a change request refused for a wrong token', () => {
  it('runs after a restart with the right token', async () => {
    const { emulator, space, state, setup } = await setUp();
    const first = await startWithRightToken(setup);
    const cr = await keptChangeRequest(state);
    await stopDaemon(first);
    await approve(emulator, space, cr);

    const wrong = await startWithWrongToken(setup);
    await failedRun(wrong, 'poll-change-requests');
    await stopDaemon(wrong);

    const right = await startWithRightToken(setup);
    await mergedAfterFix(emulator, space, cr);
    await waitFor(() => completedRuns(right.lines, 'merge-change-request')[0], 'the merge run');
  });

  it('runs, without a restart, once the service accepts the token for the merge again', async () => {
    const { emulator, space, state, setup } = await setUp();
    const daemon = await startWithRightToken(setup);
    const cr = await keptChangeRequest(state);
    const refusal = await refuseTokenFor(emulator, 'POST', '/change-requests/[^/]+/merge$');
    await approve(emulator, space, cr);
    const failure = await failedRun(daemon, 'merge-change-request');
    expect(failure.job).toMatch(new RegExp(`^merge/${space}/${cr}/`));

    await refusal.accept();
    await mergedAfterFix(emulator, space, cr);
    // The failed job is kept for people to read; the merge ran as a new job of the same work.
    expect(await daemon.queues.get('maintain').getJobState(String(failure.job))).toBe('failed');
  });
});
