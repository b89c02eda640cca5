// The refresh of an OpenAPI spec kept in a mapped repository, queued by the git poll for the spec
// file's new blob, failed on a wrong service token (401): it runs again once the token is fixed,
// within a poll interval of the fix, with a restart on the right token and without one. The spec's
// own schedule is yearly, so only the git poll can queue the refresh during the test.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { completedRuns } from '../../support/job-runs.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { callApi, type TestEmulator } from '../../support/start-test-emulator.js';
import {
  FIX_TO_DONE_MS,
  failedRun,
  refuseAdminToken,
  startWithRightToken,
  startWithWrongToken,
  stopDaemon,
  tokenFixWorld,
} from '../../support/token-fix.js';
import { waitFor } from '../../support/wait-for.js';

const SPEC = `openapi: 3.0.3
info:
  title: Pets
  version: "1"
paths:
  /pets:
    get:
      responses:
        '200': { description: ok }
`;

const setUp = () =>
  tokenFixWorld({
    name: 'refresh',
    files: { 'docs/README.md': '# Docs\n', 'api/openapi.yaml': SPEC },
    yaml: (space, remote, org) => `mappings:
  - { name: docs, space: ${space}, git: { repo: ${remote}, branch: main, dir: docs, poll: 1s } }
openapi:
  - { org: ${org}, slug: pets, source: { mapping: docs, path: api/openapi.yaml }, pattern: "0 0 1 1 *" }
`,
  });

async function versions(emulator: TestEmulator): Promise<number> {
  const answer = await callApi<{ items: unknown[] }>(
    `${emulator.baseUrl}/orgs/${emulator.orgId}/openapi/pets/versions`,
    emulator.tokens.admin,
  );
  return answer.status === 404 ? 0 : answer.body.items.length;
}

const uploadedAfterFix = (emulator: TestEmulator) =>
  waitFor(async () => (await versions(emulator)) === 1, 'the upload after the fix', FIX_TO_DONE_MS);

describe('an OpenAPI refresh failed on a wrong token', () => {
  it('runs again after a restart with the right token', async () => {
    const { emulator, setup } = await setUp();
    const wrong = await startWithWrongToken(setup);
    const failure = await failedRun(wrong, 'refresh-openapi');
    expect(failure.job).toMatch(new RegExp(`^refresh-openapi/${emulator.orgId}/pets/git/[0-9a-f]{40}$`));
    await stopDaemon(wrong);

    const right = await startWithRightToken(setup);
    await uploadedAfterFix(emulator);
    const run = await waitFor(() => completedRuns(right.lines, 'refresh-openapi')[0], 'the refresh run');
    expect(run).toMatchObject({ result: 'uploaded' });
    // The same work as the failed job, queued again under a rerun id; the failed one is kept.
    expect(String(run.job).startsWith(`${String(failure.job)}/rerun-`)).toBe(true);
    expect(await right.queues.get('openapi').getJobState(String(failure.job))).toBe('failed');
  });

  it('runs again, without a restart, once the service accepts the token', async () => {
    const { emulator, setup } = await setUp();
    const refusal = refuseAdminToken(emulator);
    const daemon = await startTestDaemon({
      prefix: setup.prefix,
      dataDir: setup.dataDir,
      jobs: JOBS,
      service: emulator,
      yaml: setup.yaml,
    });
    await failedRun(daemon, 'refresh-openapi');
    refusal.accept();
    await uploadedAfterFix(emulator);
  });
});
