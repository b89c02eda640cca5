// A two-way mapping as the export tests need it: a local service with a space, a repository whose
// `docs` folder holds README.md and notes.md, and docsync with the space poll left to the test
// (`export.poll: 1h`: it runs once at start, then when the test queues it), the git and change
// request polls every second, merges after `approvals`. `started` waits until the first import is
// merged and the space poll has seen the merge: edits from then on are the test's.
import { expect } from 'vitest';
import { pollSpaceKind } from '../../jobs/poll-space/poll-space-kind.js';
import { JOBS } from '../../jobs/registry.js';
import { RedisMappingStateStore } from '../../src/state/redis-mapping-state-store.js';
import { createTestRepo, type TestRepo } from './git-repos.js';
import { editInService, findPage } from './service-content.js';
import { startTestDaemon, type TestDaemon } from './start-test-daemon.js';
import { callApi, createTestSpace, startTestEmulator, type TestEmulator } from './start-test-emulator.js';
import { stateWhere } from './state-where.js';
import { tempDir, testRedis, uniquePrefix } from './test-context.js';
import { waitFor } from './wait-for.js';

export interface TwoWayWorld {
  emulator: TestEmulator;
  space: string;
  repo: TestRepo;
  /** The commit of the first docs. */
  first: string;
  /** The state of the mapping `docs`. */
  state: RedisMappingStateStore;
  daemon: TestDaemon;
  /** Queues a space poll now. */
  pollSpace(): Promise<void>;
  /** A writer sets notes.md's markdown in the service: the new revision of the space. */
  writeNotes(markdown: string): string;
  /** A person pulls, changes README.md, commits and pushes: the commit. */
  commitReadme(markdown: string, message: string): Promise<string>;
  /** The space's main content, pages as markdown, as one JSON text. */
  spaceText(): Promise<string>;
  /** Approves the change request's current revision, unless it is approved or not open. */
  approve(cr: string): Promise<void>;
  /** Approves each new revision of the change request until docsync has merged it. */
  approveUntilMerged(cr: string): Promise<void>;
}

export interface TwoWayOptions {
  /** For the Redis prefix. */
  name: string;
  /** Approvals a merge needs (0: docsync merges at once). */
  approvals: number;
  /** Also watch the repository's working copy. */
  watch?: boolean;
}

export async function startTwoWay(options: TwoWayOptions): Promise<TwoWayWorld> {
  const emulator = await startTestEmulator();
  const space = await createTestSpace(emulator, 'Docs');
  const repo = await createTestRepo();
  const first = await repo.commit(
    { 'docs/README.md': '# Welcome\n', 'docs/notes.md': '# Notes\n' },
    'Write the docs',
  );
  await repo.push();
  const prefix = uniquePrefix(options.name);
  const state = new RedisMappingStateStore(testRedis(prefix), prefix);
  const watch = options.watch === true ? `, watch: { path: ${repo.work}, debounce: 200ms }` : '';
  const mappings = `mappings:
  - name: docs
    space: ${space}
    direction: both
    git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s${watch} }
    export: { poll: 1h }
    changeRequest: { poll: 1s }
    merge: { enabled: true, approvals: ${options.approvals} }
`;
  const daemon = await startTestDaemon({
    prefix,
    jobs: JOBS,
    ...(options.watch === true
      ? {
          yaml: `dataDir: ${await tempDir('daemon-data')}
service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }
${mappings}`,
        }
      : { service: emulator, yaml: mappings }),
  });
  const approve = async (cr: string) => {
    const now = emulator.emulator.state.changeRequests[cr];
    if (now?.status !== 'open') return;
    const approved = Object.values(emulator.emulator.state.reviews).some(
      (review) => review.changeRequestId === cr && review.revision === now.revision,
    );
    if (approved) return;
    const answer = await callApi(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}/reviews`,
      emulator.tokens.reviewer,
      'POST',
      { status: 'approved' },
    );
    expect(answer.status).toBe(201);
  };
  const world: TwoWayWorld = {
    emulator,
    space,
    repo,
    first,
    state,
    daemon,
    pollSpace: async () => {
      await pollSpaceKind.enqueue(daemon.queues, { mapping: 'docs' }, { reason: 'test' });
    },
    writeNotes: (markdown) =>
      editInService(emulator.emulator, { spaceId: space }, (pages) => {
        findPage(pages, 'notes.md').markdown = markdown;
      }).id,
    commitReadme: async (markdown, message) => {
      await repo.git('pull', '--quiet', '--ff-only', 'origin', 'main');
      const commit = await repo.commit({ 'docs/README.md': markdown }, message);
      await repo.push();
      return commit;
    },
    spaceText: async () => {
      const pages = await callApi<unknown>(
        `${emulator.baseUrl}/spaces/${space}/content/pages?format=markdown`,
        emulator.tokens.admin,
      );
      return JSON.stringify(pages.body);
    },
    approve,
    approveUntilMerged: async (cr) => {
      await waitFor(async () => {
        if ((await state.get('docs')).lastMerge?.changeRequest.id === cr) return true;
        await approve(cr);
        return undefined;
      }, `the merge of ${cr}`);
    },
  };
  const opened = await stateWhere(state, 'docs', (s) => s.changeRequestId !== undefined, 'the first import');
  await world.approveUntilMerged(String(opened.changeRequestId));
  // The space poll sees the merge: the space now equals the first commit, the base of exports. A
  // poll already running when the merge landed absorbs the one queued here (same job id), and
  // exports poll hourly in this world: queue another until one has seen it.
  let queuedAt = 0;
  await waitFor(
    async () => {
      if ((await state.get('docs')).exportBase === first) return true;
      if (Date.now() - queuedAt > 1000) {
        queuedAt = Date.now();
        await world.pollSpace();
      }
      return undefined;
    },
    'the merge seen by the space poll',
    30_000,
  );
  return world;
}
