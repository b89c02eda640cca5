import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import type { MappingState } from '../../../src/state/mapping-state.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { createTestRepo, type TestRepo } from '../../support/git-repos.js';
import { editInService, findPage } from '../../support/service-content.js';
import { startTestDaemon, type TestDaemon } from '../../support/start-test-daemon.js';
import {
  callApi,
  createTestSpace,
  startTestEmulator,
  type TestEmulator,
} from '../../support/start-test-emulator.js';
import { exportOf, stateWhere } from '../../support/state-where.js';
import { requestCounts } from '../../support/test-api-client.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';

const FIRST_DOCS = {
  'docs/README.md': '# Welcome\n\nSee [install](install.md).\n',
  'docs/install.md': '# Install\n\nRun it.\n',
  'src/app.js': 'x\n',
};
const SPACE_CONTENT_READ = 'GET /v1/spaces/:s/content';
const SKIPPED = 'space revision came from docsync, not exported';

interface Setup {
  emulator: TestEmulator;
  space: string;
  repo: TestRepo;
  prefix: string;
  state: RedisMappingStateStore;
}

async function setUp(): Promise<Setup> {
  const emulator = await startTestEmulator();
  const space = await createTestSpace(emulator, 'Docs');
  const repo = await createTestRepo();
  await repo.commit(FIRST_DOCS, 'Write the first docs');
  await repo.push();
  const prefix = uniquePrefix('merged-by-person');
  return { emulator, space, repo, prefix, state: new RedisMappingStateStore(testRedis(prefix), prefix) };
}

/** The daemon with one mapping; merges are left to people, as by default. */
async function startDaemon(setup: Setup, direction: 'both' | 'git-to-space'): Promise<TestDaemon> {
  const yaml = `mappings:
  - name: docs
    space: ${setup.space}
    direction: ${direction}
    git: { repo: ${setup.repo.remote}, branch: main, dir: docs, poll: 1s }
    changeRequest: { poll: 1s }
    export: { poll: 1s, author: { name: Docs Bot, email: docs-bot@example.com } }
`;
  return startTestDaemon({ prefix: setup.prefix, jobs: JOBS, service: setup.emulator, yaml });
}

const docsWhere = (setup: Setup, test: (state: MappingState) => boolean, what: string) =>
  stateWhere(setup.state, 'docs', test, what);

/** The change request the import made, once its content is in. */
async function importedInto(setup: Setup, sha: string): Promise<string> {
  const state = await docsWhere(
    setup,
    (s) => s.lastImport?.result === 'imported' && s.lastImport.sha === sha,
    `the import of ${sha.slice(0, 7)}`,
  );
  if (state.changeRequestId === undefined) throw new Error('the import kept no change request');
  return state.changeRequestId;
}

/**
 * The daemon in both directions, once it imported the first commit into a change request and its
 * space poll has a baseline.
 */
async function importedBothWays() {
  const setup = await setUp();
  const first = await setup.repo.git('rev-parse', 'HEAD');
  const daemon = await startDaemon(setup, 'both');
  const cr = await importedInto(setup, first);
  await docsWhere(setup, (s) => s.lastSeenRevision !== undefined, 'the space poll baseline');
  return { setup, first, daemon, cr };
}

/** A person merges the change request through the API, as the service's merge button does. */
async function mergeAsPerson(setup: Setup, changeRequest: string): Promise<string> {
  const answer = await callApi<{ revision: string; result: string }>(
    `${setup.emulator.baseUrl}/spaces/${setup.space}/change-requests/${changeRequest}/merge`,
    setup.emulator.tokens.reviewer,
    'POST',
  );
  expect(answer.status).toBe(200);
  return answer.body.revision;
}

/** A writer's edit of one page in the service, of the space or of a change request: a new revision. */
function editPage(
  setup: Setup,
  target: { changeRequestId?: string },
  sourcePath: string,
  markdown: string,
): string {
  return editInService(setup.emulator.emulator, { spaceId: setup.space, ...target }, (pages) => {
    findPage(pages, sourcePath).markdown = markdown;
  }).id;
}

const remote = (repo: TestRepo, ...args: string[]) => repo.git('--git-dir', repo.remote, ...args);

/** The export of `revision` committed on main, on `parent`, changing exactly `path` (to `text`). */
async function expectCommittedOnMain(
  setup: Setup,
  revision: string,
  parent: string,
  path: string,
  text: string,
): Promise<void> {
  const exported = await exportOf(setup.state, 'docs', revision, 'the export');
  expect(exported.lastExport).toMatchObject({ result: 'committed', branch: 'main' });
  const sha = await remote(setup.repo, 'rev-parse', 'main');
  expect(await remote(setup.repo, 'rev-parse', 'main^')).toBe(parent);
  expect(await remote(setup.repo, 'diff', '--name-only', parent, sha)).toBe(path);
  expect(await remote(setup.repo, 'show', `${sha}:${path}`)).toBe(text);
}

const skippedAsMerge = (daemon: TestDaemon, revision: string) =>
  daemon.lines.some((line) => line.msg === SKIPPED && line.revision === revision && line.origin === 'merge');

describe('a change request merged by a person', () => {
  it('is docsync’s own when nobody edited it: not exported, and later edits commit on the branch', async () => {
    const { setup, first, daemon, cr } = await importedBothWays();
    const { repo, space } = setup;

    const merged = await mergeAsPerson(setup, cr);
    const seen = await docsWhere(setup, (s) => s.lastSeenRevision === merged, 'the space poll of the merge');
    expect(seen.exportBase).toBe(first);
    expect(await setup.state.revisionOrigin(space, merged)).toEqual({
      kind: 'merge',
      mapping: 'docs',
      sha: first,
      changeRequest: cr,
    });
    expect(skippedAsMerge(daemon, merged)).toBe(true);

    const edit = editPage(setup, {}, 'install.md', '# Install\n\nRun it, then check the logs.\n');
    await expectCommittedOnMain(
      setup,
      edit,
      first,
      'docs/install.md',
      '# Install\n\nRun it, then check the logs.',
    );
    // The merge itself was never exported: one read of the space's content (the edit's export),
    // one commit, no conflict branch.
    expect((await requestCounts(setup.emulator)).counts[SPACE_CONTENT_READ]).toBe(1);
    expect(await remote(repo, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main');
  });

  it('is exported when a person edited it after the import, on the branch', async () => {
    const { setup, first, daemon, cr } = await importedBothWays();
    const { space } = setup;

    editPage(setup, { changeRequestId: cr }, 'README.md', '# Welcome\n\nWelcome aboard.\n');
    const merged = await mergeAsPerson(setup, cr);
    // Its content descends from the imported commit: the person's edit lands on the branch.
    await expectCommittedOnMain(setup, merged, first, 'docs/README.md', '# Welcome\n\nWelcome aboard.');
    expect(await setup.state.revisionOrigin(space, merged)).toBeUndefined();
    expect(skippedAsMerge(daemon, merged)).toBe(false);
  });

  it('is recognised after docsync moved on to a new change request, before any space poll saw it', async () => {
    const setup = await setUp();
    const { repo, space } = setup;
    const first = await repo.git('rev-parse', 'HEAD');
    // Imports only at first: the merge and the next import happen with no space poll running.
    const importing = await startDaemon(setup, 'git-to-space');
    const firstCr = await importedInto(setup, first);
    const merged = await mergeAsPerson(setup, firstCr);
    const second = await repo.commit({ 'docs/usage.md': '# Usage\n' }, 'Add usage');
    await repo.push();
    const secondCr = await importedInto(setup, second);
    expect(secondCr).not.toBe(firstCr);
    await importing.shutdown.run('imports done');

    const daemon = await startDaemon(setup, 'both');
    const seen = await docsWhere(setup, (s) => s.lastSeenRevision === merged, 'the space poll of the merge');
    expect(seen.exportBase).toBe(first);
    expect(skippedAsMerge(daemon, merged)).toBe(true);
    expect(seen.lastExport).toBeUndefined();

    // The second change request merged as it was; the edit after it commits on the branch.
    const mergedAgain = await mergeAsPerson(setup, secondCr);
    await docsWhere(
      setup,
      (s) => s.lastSeenRevision === mergedAgain && s.exportBase === second,
      'the space poll of the second merge',
    );
    expect((await setup.state.revisionOrigin(space, mergedAgain))?.kind).toBe('merge');
    const edit = editPage(setup, {}, 'usage.md', '# Usage\n\nRun `docs serve`.\n');
    await expectCommittedOnMain(setup, edit, second, 'docs/usage.md', '# Usage\n\nRun `docs serve`.');
    expect(await remote(repo, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main');
  });
});
