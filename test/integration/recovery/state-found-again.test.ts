// Issue 36: docsync's state is a cache of what git and the service hold. A daemon starting on a Redis
// that never saw the mapping (after `docsync once` imported in CI, after Redis lost everything)
// finds again which commit the space holds, the change request it keeps, and the commit the space
// last equalled: it imports nothing twice, swallows no edit, and a writer's edit comes back as one
// commit on the branch, not on a conflict branch.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { resumeMapping } from '../../../src/producers/resume-mapping.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { createTestRepo, type TestRepo } from '../../support/git-repos.js';
import { nextRuns } from '../../support/job-runs.js';
import { onceConfig } from '../../support/once-config.js';
import { editInService, findPage } from '../../support/service-content.js';
import { startTestDaemon, type TestDaemon } from '../../support/start-test-daemon.js';
import {
  callApi,
  createTestSpace,
  startTestEmulator,
  type TestEmulator,
} from '../../support/start-test-emulator.js';
import { exportOf, stateWhere } from '../../support/state-where.js';
import { setFaults } from '../../support/test-api-client.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';

const DOCS = {
  'docs/README.md': '# Welcome\n\nSee [install](install.md).\n',
  'docs/install.md': '# Install\n\nRun it.\n',
};

interface World {
  emulator: TestEmulator;
  space: string;
  repo: TestRepo;
}

async function world(): Promise<World> {
  const emulator = await startTestEmulator();
  const space = await createTestSpace(emulator, 'Docs');
  const repo = await createTestRepo();
  await repo.commit(DOCS, 'Write the first docs');
  await repo.push();
  return { emulator, space, repo };
}

/** A daemon of mapping `docs` in both directions on a Redis prefix nothing was ever written under. */
async function daemonOnNewRedis(w: World) {
  const prefix = uniquePrefix('found-again');
  const yaml = `mappings:
  - name: docs
    space: ${w.space}
    direction: both
    git: { repo: ${w.repo.remote}, branch: main, dir: docs, poll: 1s }
    changeRequest: { poll: 1s }
    export: { poll: 1s, author: { name: Docs Bot, email: docs-bot@example.com } }
`;
  const daemon = await startTestDaemon({ prefix, jobs: JOBS, service: w.emulator, yaml });
  return { daemon, state: new RedisMappingStateStore(testRedis(prefix), prefix) };
}

async function changeRequests(w: World): Promise<Array<{ id: string; status: string; subject: string }>> {
  const list = async (status: string) =>
    (
      await callApi<{ items: Array<{ id: string; status: string; subject: string }> }>(
        `${w.emulator.baseUrl}/spaces/${w.space}/change-requests?status=${status}`,
        w.emulator.tokens.admin,
      )
    ).body.items;
  return [...(await list('open')), ...(await list('draft')), ...(await list('merged'))];
}

async function mergeAsPerson(w: World, changeRequest: string): Promise<string> {
  const answer = await callApi<{ revision: string }>(
    `${w.emulator.baseUrl}/spaces/${w.space}/change-requests/${changeRequest}/merge`,
    w.emulator.tokens.reviewer,
    'POST',
  );
  expect(answer.status).toBe(200);
  return answer.body.revision;
}

/** `docsync once` imports the branch in CI (no Redis), then a person merges its change request. */
async function importedInCiAndMerged(w: World): Promise<void> {
  const { once } = await onceConfig({
    emulator: w.emulator,
    space: w.space,
    repo: w.repo,
    mapping: 'docs',
    dir: 'docs',
  });
  const run = await once('--json');
  expect(run.code).toBe(0);
  await mergeAsPerson(w, (JSON.parse(run.stdout) as { changeRequest: { id: string } }).changeRequest.id);
}

const editInstall = (w: World, markdown: string) =>
  editInService(w.emulator.emulator, { spaceId: w.space }, (pages) => {
    findPage(pages, 'install.md').markdown = markdown;
  }).id;

const remote = (repo: TestRepo, ...args: string[]) => repo.git('--git-dir', repo.remote, ...args);

/** The export of `revision` committed on main, right on `parent`, and no conflict branch anywhere. */
async function committedOnMain(w: World, state: RedisMappingStateStore, revision: string, parent: string) {
  const exported = await exportOf(state, 'docs', revision, `the export of ${revision}`);
  expect(exported.lastExport).toMatchObject({ result: 'committed', branch: 'main' });
  const tip = await remote(w.repo, 'rev-parse', 'main');
  expect(await remote(w.repo, 'rev-parse', 'main^')).toBe(parent);
  expect(await remote(w.repo, 'diff', '--name-only', parent, tip)).toBe('docs/install.md');
  expect(await remote(w.repo, 'for-each-ref', '--format=%(refname)', 'refs/heads/docsync/')).toBe('');
  return tip;
}

/** Two whole polls of each kind after the call: whatever they would have done, they did. */
async function pollsRan(daemon: TestDaemon) {
  await Promise.all([
    nextRuns([daemon.lines], 'poll-git', 2, 20_000),
    nextRuns([daemon.lines], 'poll-space', 2, 20_000),
  ]);
}

describe('state found again from git and the service', () => {
  it('after `docsync once` and a merge by a person: no second change request, an edit comes back on the branch', async () => {
    const w = await world();
    const sha = await w.repo.git('rev-parse', 'HEAD');
    await importedInCiAndMerged(w);

    const { daemon, state } = await daemonOnNewRedis(w);
    const found = await stateWhere(
      state,
      'docs',
      (s) => s.lastImportedSha === sha && s.lastSeenRevision !== undefined && s.exportBase !== undefined,
      'the state found again',
    );
    expect(found.exportBase).toBe(sha);
    await pollsRan(daemon);
    const all = await changeRequests(w);
    expect(all.map((cr) => cr.status)).toEqual(['merged']);
    expect(all[0]?.subject).toContain(`@${sha.slice(0, 12)}`);

    const edit = editInstall(w, '# Install\n\nRun it, then read the logs.\n');
    await committedOnMain(w, state, edit, sha);
    expect((await changeRequests(w)).length).toBe(1);
  });

  it('after a merge, commits that brought the folder back and a listing that failed: still no second change request', async () => {
    const w = await world();
    await importedInCiAndMerged(w);
    // A change of the folder and its revert: the branch moved, the folder is what the space holds.
    await w.repo.commit({ 'docs/install.md': '# Install\n\nRun it twice.\n' }, 'Try another way');
    const head = await w.repo.commit({ 'docs/install.md': DOCS['docs/install.md'] }, 'Back to the first way');
    await w.repo.push();
    // The listings of change requests fail for a while (each of the client's tries of the first
    // ones, the change request poll's included): the git poll fails and looks again.
    await setFaults(w.emulator, {
      forced: [{ status: 502, method: 'GET', path: '/change-requests$', times: 30 }],
    });

    const { daemon, state } = await daemonOnNewRedis(w);
    const found = await stateWhere(
      state,
      'docs',
      (s) => s.lastImportedSha !== undefined,
      'the state found again',
    );
    expect(found.lastImportedSha).toBe(head);
    await pollsRan(daemon);
    // The git poll failed on the listing rather than import on a state it could not find.
    expect(daemon.lines.some((line) => line.name === 'poll-git' && /failed/.test(String(line.msg)))).toBe(
      true,
    );
    expect((await changeRequests(w)).map((cr) => cr.status)).toEqual(['merged']);
  });

  it('after Redis lost everything: an edit made meanwhile comes back as one commit, docsync’s own export is not exported again', async () => {
    const w = await world();
    const first = await w.repo.git('rev-parse', 'HEAD');
    const before = await daemonOnNewRedis(w);
    const cr = await stateWhere(
      before.state,
      'docs',
      (s) => s.changeRequestId !== undefined,
      'the first import',
    );
    await mergeAsPerson(w, cr.changeRequestId ?? '');
    await stateWhere(before.state, 'docs', (s) => s.exportBase === first, 'the merge seen');
    const edit = editInstall(w, '# Install\n\nRun it twice.\n');
    const exported = await committedOnMain(w, before.state, edit, first);
    await before.daemon.shutdown.run('redis lost');

    // Redis comes back empty: a new prefix is a Redis that never saw the mapping. A writer edits
    // the space while no docsync watches.
    const meanwhile = editInstall(w, '# Install\n\nRun it three times.\n');
    const after = await daemonOnNewRedis(w);
    const tip = await committedOnMain(w, after.state, meanwhile, exported);
    await pollsRan(after.daemon);
    expect(await remote(w.repo, 'rev-list', '--count', `${exported}..main`)).toBe('1');
    expect((await changeRequests(w)).map((entry) => entry.status)).toEqual(['merged']);
    await after.daemon.shutdown.run('redis lost again');

    // Lost once more, with nothing new: the space is at the revision of docsync's last export.
    const again = await daemonOnNewRedis(w);
    const settled = await stateWhere(
      again.state,
      'docs',
      (s) => s.lastSeenRevision === meanwhile && s.lastImportedSha !== undefined,
      'the state found again',
    );
    expect(settled.exportBase).toBe(tip);
    expect(settled.exportQueued).toBeUndefined();
    await pollsRan(again.daemon);
    expect(await remote(w.repo, 'rev-parse', 'main')).toBe(tip);
    expect((await changeRequests(w)).map((entry) => entry.status)).toEqual(['merged']);
  });

  it('after Redis lost the pause of a force-push: paused again, nothing imported, until docsync resume', async () => {
    const w = await world();
    const before = await daemonOnNewRedis(w);
    await stateWhere(before.state, 'docs', (s) => s.lastImport?.result === 'imported', 'the first import');
    await w.repo.git('commit', '--quiet', '--amend', '-m', 'Rewritten history');
    await w.repo.push(true);
    await before.daemon.shutdown.run('redis lost');

    const after = await daemonOnNewRedis(w);
    const paused = await stateWhere(
      after.state,
      'docs',
      (s) => s.paused !== undefined,
      'the pause found again',
    );
    expect(paused.paused?.reason).toBe('force-push');
    expect(paused.lastImportedSha).toBeUndefined();
    await nextRuns([after.daemon.lines], 'poll-git', 2, 20_000);
    expect((await after.state.get('docs')).lastImport).toBeUndefined();

    await resumeMapping(after.state, after.daemon.queues.get('import'), 'docs', () => new Date());
    const head = await w.repo.git('rev-parse', 'HEAD');
    await stateWhere(after.state, 'docs', (s) => s.lastImportedSha === head, 'the import after the resume');
    expect((await changeRequests(w)).map((entry) => entry.status)).toEqual(['open']);
  });
});
