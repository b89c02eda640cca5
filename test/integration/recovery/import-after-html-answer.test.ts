// The service, or a proxy in front of it, answers the import with an HTML error page and status 200:
// not the service's answer but a passing fault, so the job is tried again as after a 5xx (its next
// attempt, not a failure for good) and the commit is imported once.
import { describe, expect, it } from 'vitest';
import { completedRuns } from '../../support/job-runs.js';
import { callApi } from '../../support/start-test-emulator.js';
import { stateWhere } from '../../support/state-where.js';
import { requestCounts, setFaults } from '../../support/test-api-client.js';
import { startWithRightToken, tokenFixWorld } from '../../support/token-fix.js';
import { waitFor } from '../../support/wait-for.js';

/** Imports sent, whatever the route of the content they go into. */
const importsSent = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([route]) => route.startsWith('POST ') && route.endsWith('/import'))
    .reduce((sum, [, count]) => sum + count, 0);

describe('an import answered with an HTML page and 200', () => {
  it('is tried again as after a 5xx, and imports the commit once', async () => {
    const { emulator, space, sha, state, setup } = await tokenFixWorld({
      name: 'import-html',
      files: { 'docs/README.md': '# Welcome\n', 'docs/install.md': '# Install\n' },
      // A short job backoff, so that the second attempt comes within the test's time.
      yaml: (space, remote) => `queues: { backoff: 200ms }
mappings:
  - { name: docs, space: ${space}, git: { repo: ${remote}, branch: main, dir: docs, poll: 1s } }
`,
    });
    await setFaults(emulator, { forced: [{ status: 200, html: true, method: 'POST', path: '/import$' }] });
    const daemon = await startWithRightToken(setup);

    await stateWhere(state, 'docs', (s) => s.lastImportedSha === sha, 'the commit imported');
    const job = `import/docs/${sha}`;
    const imports = daemon.queues.get('import');
    await waitFor(
      async () => ((await imports.getJobState(job)) === 'completed' ? true : undefined),
      'the import job completed',
    );

    const runs = daemon.lines.filter((line) => line.job === job);
    // The first attempt failed on the page, for now; the same job's next attempt imported.
    expect(runs.filter((line) => line.msg === 'job failed, will retry')).toEqual([
      expect.objectContaining({ code: 'API_RESPONSE_INVALID', result: 'retrying' }),
    ]);
    expect(runs.filter((line) => line.msg === 'job failed permanently')).toEqual([]);
    expect(completedRuns(runs, 'import-content')).toHaveLength(1);
    // Two imports sent (the page, then the answer), into one change request.
    expect(importsSent((await requestCounts(emulator)).counts)).toBe(2);
    const listed = await callApi<{ items: unknown[] }>(
      `${emulator.baseUrl}/spaces/${space}/change-requests`,
      emulator.tokens.admin,
    );
    expect(listed.body.items).toHaveLength(1);
  });
});
