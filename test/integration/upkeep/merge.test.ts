import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { createTestRepo } from '../../support/git-repos.js';
import { nextRuns } from '../../support/job-runs.js';
import { startTestDaemon, type TestDaemon } from '../../support/start-test-daemon.js';
import {
  callApi,
  createTestSpace,
  startTestEmulator,
  type TestEmulator,
} from '../../support/start-test-emulator.js';
import { requestCounts } from '../../support/test-api-client.js';
import { tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

interface Verdict {
  number: number;
  mergeable: boolean;
  reasons: string[];
}

interface ChangeRequest {
  id: string;
  status: string;
  revision: string;
  revisionMerged?: string;
}

async function setUp(options: { merge?: string; daemons?: number } = {}) {
  const emulator = await startTestEmulator();
  const space = await createTestSpace(emulator, 'Docs');
  const repo = await createTestRepo();
  await repo.commit(
    { 'docs/README.md': '# Welcome\n\nSee [install](install.md).\n', 'docs/install.md': '# Install\n' },
    'First docs',
  );
  await repo.push();
  const prefix = uniquePrefix('upkeep');
  const redis = testRedis(prefix);
  const yaml = `mappings:
  - name: docs
    space: ${space}
    git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s }
    changeRequest: { poll: 1s, autoUpdate: before-merge }
    merge: ${options.merge ?? '{ enabled: true, approvals: 1, resolvedComments: true, noBrokenLinks: true, blockSubject: "WIP" }'}
`;
  // Processes of one machine: one data folder.
  const shared = { prefix, jobs: JOBS, service: emulator, dataDir: await tempDir('daemon-data'), yaml };
  const daemons: TestDaemon[] = [];
  for (let i = 0; i < (options.daemons ?? 1); i += 1) daemons.push(await startTestDaemon(shared));
  const state = new RedisMappingStateStore(redis, prefix);
  const cr = await waitFor(async () => (await state.get('docs')).changeRequestId, 'the first import');
  return { emulator, space, repo, daemons, daemon: daemons[0] as TestDaemon, state, cr };
}

async function verdicts(daemon: TestDaemon): Promise<Verdict[]> {
  const status = (await (await fetch(`${daemon.httpAddress}/status`)).json()) as {
    mappings: Array<{ changeRequests: Verdict[] }>;
  };
  return status.mappings[0]?.changeRequests ?? [];
}

async function verdictWith(daemon: TestDaemon, reason: string): Promise<Verdict> {
  return waitFor(
    async () => (await verdicts(daemon)).find((verdict) => verdict.reasons.includes(reason)),
    `a verdict naming "${reason}"`,
  );
}

const changeRequest = (emulator: TestEmulator, space: string, cr: string) =>
  callApi<ChangeRequest>(
    `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}`,
    emulator.tokens.admin,
  ).then((answer) => answer.body);

const review = (
  emulator: TestEmulator,
  space: string,
  cr: string,
  status: 'approved' | 'changes-requested',
) =>
  callApi(
    `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}/reviews`,
    emulator.tokens.reviewer,
    'POST',
    { status },
  );

describe('change request upkeep', () => {
  it('merges an approved change request once its links were checked, and says why before', async () => {
    const { emulator, space, daemon, cr } = await setUp();
    await verdictWith(daemon, 'needs 1 more approval');
    expect((await review(emulator, space, cr, 'approved')).status).toBe(201);
    const merged = await waitFor(async () => {
      const now = await changeRequest(emulator, space, cr);
      return now.status === 'merged' ? now : undefined;
    }, 'the merge');
    const main = (
      await callApi<{ revision: string }>(`${emulator.baseUrl}/spaces/${space}`, emulator.tokens.admin)
    ).body;
    expect(main.revision).toBe(merged.revisionMerged);
  });

  it('does not merge with changes requested, an open comment or a broken link, and names each reason', async () => {
    const { emulator, space, repo, daemon, cr, state } = await setUp();
    await review(emulator, space, cr, 'approved');
    await review(emulator, space, cr, 'changes-requested');
    await verdictWith(daemon, 'changes requested by Rita Reviewer');
    await callApi(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}/comments`,
      emulator.tokens.commenter,
      'POST',
      { body: { markdown: 'Typo here' } },
    );
    await verdictWith(daemon, '1 open comment');
    const broken = await repo.commit(
      { 'docs/install.md': '# Install\n\nSee [nowhere](nowhere.md).\n' },
      'Broken link',
    );
    await repo.push();
    await waitFor(
      async () => ((await state.get('docs')).lastImportedSha === broken ? true : undefined),
      'the import',
    );
    const verdict = await verdictWith(daemon, '1 broken link');
    expect(verdict.mergeable).toBe(false);
    expect((await changeRequest(emulator, space, cr)).status).toBe('open');
  });

  it('does not merge a draft or a blocked subject', async () => {
    const { emulator, space, daemon, cr } = await setUp({
      merge: '{ enabled: true, approvals: 0, blockSubject: "^docs: First" }',
    });
    await verdictWith(daemon, 'subject blocked');
    await callApi(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}`,
      emulator.tokens.admin,
      'PATCH',
      { status: 'draft' },
    );
    await verdictWith(daemon, 'draft');
    expect((await changeRequest(emulator, space, cr)).status).toBe('draft');
  });

  it('updates a change request that became outdated after its approval, and does not merge it stale', async () => {
    const { emulator, space, daemon, cr } = await setUp({ merge: '{ enabled: true, approvals: 1 }' });
    // The main content moves (another change request is merged) before the approval arrives.
    const other = (
      await callApi<{ id: string }>(
        `${emulator.baseUrl}/spaces/${space}/change-requests`,
        emulator.tokens.admin,
        'POST',
        { subject: 'someone else' },
      )
    ).body;
    await callApi(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${other.id}/merge`,
      emulator.tokens.admin,
      'POST',
    );
    const main = (
      await callApi<{ revision: string }>(`${emulator.baseUrl}/spaces/${space}`, emulator.tokens.admin)
    ).body.revision;
    await review(emulator, space, cr, 'approved');
    const updated = await waitFor(async () => {
      const now = await changeRequest(emulator, space, cr);
      return (now as ChangeRequest & { revisionMergedAncestor?: string }).revisionMergedAncestor === main
        ? now
        : undefined;
    }, 'the update from the main content');
    // The approval was of the revision before the update: it no longer counts.
    await verdictWith(daemon, 'needs 1 more approval');
    expect(updated.status).toBe('open');
    expect((await requestCounts(emulator)).counts['POST /v1/spaces/:s/change-requests/:cr/merge']).toBe(1);
  });

  it('needs approvals from distinct people', async () => {
    const { emulator, space, daemon, cr } = await setUp({ merge: '{ enabled: true, approvals: 2 }' });
    await review(emulator, space, cr, 'approved');
    await review(emulator, space, cr, 'approved');
    await verdictWith(daemon, 'needs 1 more approval');
    expect((await changeRequest(emulator, space, cr)).status).toBe('open');
    await callApi(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}/reviews`,
      emulator.tokens.admin,
      'POST',
      { status: 'approved' },
    );
    await waitFor(
      async () => ((await changeRequest(emulator, space, cr)).status === 'merged' ? true : undefined),
      'the merge',
    );
  });

  it('merges once when two workers poll the same space', async () => {
    const { emulator, space, cr, daemons } = await setUp({
      daemons: 2,
      merge: '{ enabled: true, approvals: 1 }',
    });
    await review(emulator, space, cr, 'approved');
    await waitFor(
      async () => ((await changeRequest(emulator, space, cr)).status === 'merged' ? true : undefined),
      'the merge',
    );
    // Two more change request polls, in either worker, that could have merged it again.
    await nextRuns(
      daemons.map((daemon) => daemon.lines),
      'poll-change-requests',
      2,
    );
    expect((await requestCounts(emulator)).counts['POST /v1/spaces/:s/change-requests/:cr/merge']).toBe(1);
  });
});
