// The git poll's decisions, with its mirror and queues faked: what it queues (an import of the
// branch head, a refresh of a spec kept in the repository) and when it queues nothing, pauses or
// fails. Git's own answers (which commits touch the folder, whether the branch was rewritten) and the
// recovery of a lost state from the service are in test/integration/import/ and recovery/.
import { describe, expect, it } from 'vitest';
import { type PollGitServices, pollGitJob } from '../../../jobs/poll-git/poll-git-job.js';
import { parseConfig } from '../../../src/config/load-config.js';
import type { CommitInfo, GitMirror } from '../../../src/git/git-mirror.js';
import type { MappingState } from '../../../src/state/mapping-state.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { fakeJobRun } from '../../support/fake-job-run.js';
import { recordingQueues } from '../../support/recording-queues.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const HEAD = 'a'.repeat(40);
const LAST = 'b'.repeat(40);

const config = parseConfig(
  JSON.stringify({
    service: { baseUrl: 'https://docs.example.com/v1', token: 't' },
    mappings: [{ name: 'docs', space: 'spc_1', git: { repo: './repo', branch: 'main', dir: 'docs' } }],
    openapi: [
      { org: 'acme', slug: 'api', source: { mapping: 'docs', path: 'api/openapi.yaml' }, every: '1h' },
    ],
  }),
  'docsync.yaml',
  {},
);

function commitOf(sha: string, fields: Partial<CommitInfo> = {}): CommitInfo {
  return {
    sha,
    shortSha: sha.slice(0, 7),
    subject: 'Edit the guide',
    body: '',
    authorName: 'Ana',
    authorEmail: 'ana@example.com',
    committedAt: new Date('2026-03-01T11:00:00Z'),
    trailers: {},
    ...fields,
  };
}

const byDocsync = (sha: string) => commitOf(sha, { trailers: { 'docsync-revision': ['rev-3'] } });

/** What the repository answers: its branch head, folder, ancestry, commits and spec file. */
interface Repository {
  head?: string | undefined;
  tree?: string | undefined;
  containsLast?: boolean;
  commits?: CommitInfo[];
  specBlob?: string | undefined;
}

function mirrorOf(repo: Repository) {
  const ranges: unknown[] = [];
  const mirror = {
    fetch: async () => {},
    resolve: async () => repo.head,
    treeHash: async () => repo.tree,
    isAncestor: async () => repo.containsLast ?? true,
    commitsTouching: async (range: unknown) => {
      ranges.push(range);
      return repo.commits ?? [];
    },
    blob: async () => (repo.specBlob === undefined ? undefined : { oid: repo.specBlob, size: 100 }),
  } as Pick<
    GitMirror,
    'fetch' | 'resolve' | 'treeHash' | 'isAncestor' | 'commitsTouching' | 'blob'
  > as GitMirror;
  return { mirror, ranges };
}

async function poll(repo: Repository, state: MappingState = {}, dryRun = false) {
  const { mirror, ranges } = mirrorOf(repo);
  const { queues, added } = recordingQueues();
  const services: PollGitServices = {
    config,
    // No service: a poll with no state does not look for it there (test/integration/recovery/).
    api: undefined,
    mirrorFor: () => mirror,
    stores: memoryStores(() => NOW),
    queues,
    now: () => NOW,
    dryRun,
  };
  await services.stores.mappings.update('docs', state);
  const job = fakeJobRun({ name: 'poll-git', queue: 'import' });
  const run = () => pollGitJob.run({ ...services, ...job.run }, { mapping: 'docs' });
  return { run, services, added, ranges, outcomes: job.outcomes };
}

describe('poll-git job', () => {
  it('fails as BRANCH_NOT_FOUND when the branch is not in the repository', async () => {
    const { run } = await poll({ head: undefined });
    await expect(run()).rejects.toMatchObject({ code: 'BRANCH_NOT_FOUND' });
  });

  it('fails as FOLDER_NOT_FOUND on a first poll of a branch without the folder', async () => {
    const { run, added } = await poll({ head: HEAD, tree: undefined });
    await expect(run()).rejects.toMatchObject({ code: 'FOLDER_NOT_FOUND' });
    expect(added).toEqual([]);
  });

  it('queues the first import of the branch head, named after the newest commit of the folder', async () => {
    const { run, added, ranges } = await poll({ head: HEAD, tree: 'tree-1', commits: [commitOf(HEAD)] });
    expect(await run()).toEqual({
      result: 'import-queued',
      sha: HEAD,
      coalesced: 1,
      committedAt: '2026-03-01T11:00:00.000Z',
    });
    expect(ranges).toEqual([{ to: HEAD }]);
    expect(added).toEqual([
      expect.objectContaining({
        queue: 'import',
        name: 'import-content',
        data: {
          source: 'git',
          mapping: 'docs',
          space: 'spc_1',
          sha: HEAD,
          commit: {
            sha: HEAD,
            subject: 'Edit the guide',
            authorName: 'Ana',
            committedAt: '2026-03-01T11:00:00.000Z',
          },
        },
        opts: expect.objectContaining({ jobId: `import/docs/${HEAD}` }),
      }),
    ]);
  });

  it('imports the head once for all the commits people made since the last import', async () => {
    const newest = commitOf('c'.repeat(40), { subject: 'Newest edit' });
    const { run, added, ranges } = await poll(
      { head: HEAD, commits: [byDocsync(HEAD), newest, commitOf('d'.repeat(40))] },
      { lastImportedSha: LAST },
    );
    expect(await run()).toMatchObject({ result: 'import-queued', sha: HEAD, coalesced: 2 });
    expect(ranges).toEqual([{ from: LAST, to: HEAD }]);
    expect(added.map((job) => job.data)).toEqual([
      expect.objectContaining({ sha: HEAD, commit: expect.objectContaining({ subject: 'Newest edit' }) }),
    ]);
  });

  it('queues nothing when only docsync committed since the last import', async () => {
    const { run, added } = await poll(
      { head: HEAD, commits: [byDocsync(HEAD), byDocsync('c'.repeat(40))] },
      { lastImportedSha: LAST },
    );
    expect(await run()).toEqual({ result: 'skipped', skipped: 2 });
    expect(added).toEqual([]);
  });

  it('queues nothing when the head is the commit imported last', async () => {
    const { run, added } = await poll({ head: HEAD }, { lastImportedSha: HEAD });
    expect(await run()).toEqual({ result: 'up-to-date' });
    expect(added).toEqual([]);
  });

  it('pauses the mapping, importing nothing, when the branch no longer holds the last import', async () => {
    const { run, added, services, outcomes } = await poll(
      { head: HEAD, containsLast: false, commits: [commitOf(HEAD)] },
      { lastImportedSha: LAST },
    );
    const result = await run();
    expect(result).toMatchObject({ result: 'paused', detail: expect.stringContaining(LAST.slice(0, 12)) });
    expect((await services.stores.mappings.get('docs')).paused).toEqual({
      reason: 'force-push',
      detail: expect.stringContaining(LAST.slice(0, 12)),
      at: NOW.toISOString(),
    });
    expect(added).toEqual([]);
    // The runner records the poll's outcome for the mapping (its kind's countsToward), not the job.
    expect(outcomes).toEqual([]);
  });

  it('only says it would pause in a dry run', async () => {
    const { run, services } = await poll(
      { head: HEAD, containsLast: false },
      { lastImportedSha: LAST },
      true,
    );
    expect(await run()).toMatchObject({ result: 'paused' });
    expect((await services.stores.mappings.get('docs')).paused).toBeUndefined();
  });

  it('imports nothing while the mapping is paused', async () => {
    const { run, added } = await poll(
      { head: HEAD, commits: [commitOf(HEAD)] },
      { lastImportedSha: LAST, paused: { reason: 'force-push', detail: 'rewritten', at: NOW.toISOString() } },
    );
    expect(await run()).toEqual({ result: 'paused' });
    expect(added).toEqual([]);
  });

  it('queues a refresh of a spec kept in the repository once per new version of its file', async () => {
    const { run, added } = await poll({ head: HEAD, specBlob: 'blob-2' }, { lastImportedSha: HEAD });
    await run();
    expect(added).toEqual([
      expect.objectContaining({
        name: 'refresh-openapi',
        data: { org: 'acme', slug: 'api', trigger: 'git' },
        opts: expect.objectContaining({ jobId: 'refresh-openapi/acme/api/git/blob-2' }),
      }),
    ]);
  });

  it('queues no refresh when the file is the one uploaded last, gone, or in a dry run', async () => {
    const uploaded = await poll({ head: HEAD, specBlob: 'blob-1' }, { lastImportedSha: HEAD });
    await uploaded.services.stores.openapi.update('acme', 'api', {
      uploaded: {
        at: NOW.toISOString(),
        hash: 'h',
        sourceHash: 'h',
        refFiles: 0,
        validators: { blob: 'blob-1' },
        operations: {},
      },
    });
    await uploaded.run();
    const gone = await poll({ head: HEAD, specBlob: undefined }, { lastImportedSha: HEAD });
    await gone.run();
    const dry = await poll({ head: HEAD, specBlob: 'blob-2' }, { lastImportedSha: HEAD }, true);
    await dry.run();
    expect([...uploaded.added, ...gone.added, ...dry.added]).toEqual([]);
  });
});

type MirrorAnswers = Pick<
  GitMirror,
  'fetch' | 'resolve' | 'treeHash' | 'isAncestor' | 'commitsTouching' | 'blob'
>;

/** A mirror of a repository whose branch head is HEAD and folder a tree, but for `answers`. */
function fakeMirror(answers: Partial<MirrorAnswers>): GitMirror {
  const mirror: MirrorAnswers = {
    fetch: async () => {},
    resolve: async () => HEAD,
    treeHash: async () => 'tree',
    isAncestor: async () => true,
    commitsTouching: async () => [],
    blob: async () => undefined,
    ...answers,
  };
  return mirror as GitMirror;
}

/** A scheduled tick of a repository's poll of `mappings`, with the given mirror, stores and queues. */
async function repositoryTick(
  config: PollGitServices['config'],
  services: Pick<PollGitServices, 'stores' | 'queues'> & { mirror: GitMirror },
  tick: number,
  mappings: string[],
) {
  const job = fakeJobRun({ name: 'poll-git', queue: 'import', id: `repeat:poll-git/repo.repo.0:${tick}` });
  const { mirror, stores, queues } = services;
  const run = {
    config,
    api: undefined,
    mirrorFor: () => mirror,
    stores,
    queues,
    now: () => NOW,
    dryRun: false,
  };
  const result = await pollGitJob.run({ ...run, ...job.run }, { mappings });
  return { result, job };
}

describe('poll-git job of a repository', () => {
  const shared = parseConfig(
    JSON.stringify({
      service: { baseUrl: 'https://docs.example.com/v1', token: 't' },
      mappings: ['guide', 'api', 'gone'].map((name) => ({
        name,
        space: `spc_${name}`,
        git: { repo: './repo', branch: name === 'gone' ? 'gone' : 'main', dir: name },
      })),
    }),
    'docsync.yaml',
    {},
  );

  it('polls each mapping after one look of the tick, records each failure for its mapping, and goes on', async () => {
    const tick = 1_767_000_000_000;
    const looks: unknown[] = [];
    const mirror = fakeMirror({
      fetch: async (_signal, options) => {
        looks.push(options);
      },
      resolve: async (branch) => (branch === 'main' ? HEAD : undefined),
      commitsTouching: async () => [commitOf(HEAD)],
    });
    const { queues, added } = recordingQueues();
    const stores = memoryStores(() => NOW);
    // The api mapping was failing: its success ends the run of failures.
    await stores.mappings.update('api', {
      failures: {
        'poll-git': {
          count: 2,
          since: NOW.toISOString(),
          last: { at: NOW.toISOString(), code: 'GIT_FAILED', message: 'the host did not answer' },
        },
      },
    });
    const { result, job } = await repositoryTick(shared, { mirror, stores, queues }, tick, [
      'removed',
      'guide',
      'gone',
      'api',
    ]);
    expect(result).toEqual({ result: 'polled', mappings: 4, failed: 2, imports: 2, paused: 0 });
    // The repository's look, then each mapping's, answered by it.
    expect(looks).toEqual([{ since: tick }, { since: tick }, { since: tick }, { since: tick }]);
    expect(added.map((one) => one.data)).toEqual([
      expect.objectContaining({ mapping: 'guide', sha: HEAD }),
      expect.objectContaining({ mapping: 'api', sha: HEAD }),
    ]);
    expect(job.outcomes).toEqual([
      // A mapping that left the configuration since the job was queued fails alone.
      {
        unit: { mapping: 'removed' },
        outcome: { failed: expect.objectContaining({ code: 'MAPPING_UNKNOWN' }) },
      },
      {
        unit: { mapping: 'gone' },
        outcome: { failed: expect.objectContaining({ code: 'BRANCH_NOT_FOUND' }) },
      },
      { unit: { mapping: 'api' }, outcome: { succeeded: true } },
    ]);
  });
});

describe('poll-git job of a repository whose webhooks arrive', () => {
  const MINUTE = 60_000;
  const tick = NOW.getTime();
  const hooked = parseConfig(
    JSON.stringify({
      service: { baseUrl: 'https://docs.example.com/v1', token: 't' },
      hooks: { secret: 'a-webhook-secret-for-tests', safetyPoll: '1h' },
      mappings: ['guide', 'api'].map((name) => ({
        name,
        space: `spc_${name}`,
        git: { repo: './repo', branch: 'main', dir: name, poll: '1m' },
      })),
    }),
    'docsync.yaml',
    {},
  );

  async function tickOf(options: {
    hookAt: number;
    lookAt?: number;
    fetch?: () => Promise<void>;
    committedAt?: Date;
  }) {
    let fetches = 0;
    const mirror = fakeMirror({
      fetch: async () => {
        fetches += 1;
        await options.fetch?.();
      },
      commitsTouching: async () => [
        commitOf(HEAD, { committedAt: options.committedAt ?? new Date(tick - 30 * MINUTE) }),
      ],
    });
    const { queues, added } = recordingQueues();
    const stores = memoryStores(() => NOW);
    await stores.hooks.hooked('./repo', options.hookAt);
    if (options.lookAt !== undefined) await stores.hooks.looked('./repo', MINUTE, options.lookAt);
    for (const name of ['guide', 'api']) await stores.mappings.update(name, { lastImportedSha: LAST });
    const { result, job } = await repositoryTick(hooked, { mirror, stores, queues }, tick, ['guide', 'api']);
    return { result, fetches: () => fetches, added, stores, outcomes: job.outcomes };
  }

  it('looks on every tick where no webhook can arrive (no secret), whatever Redis holds', async () => {
    const mirror = fakeMirror({});
    const stores = memoryStores(() => NOW);
    await stores.hooks.hooked('./repo', tick - MINUTE);
    const { queues } = recordingQueues();
    const { secret: _secret, ...noSecret } = hooked.hooks;
    const unhooked = { ...hooked, hooks: noSecret };
    const { result } = await repositoryTick(unhooked, { mirror, stores, queues }, tick, ['guide']);
    expect(result).toMatchObject({ result: 'polled' });
  });

  it('makes no look between safety looks, and counts the skipped tick as no success', async () => {
    const run = await tickOf({ hookAt: tick - 10 * MINUTE });
    expect(run.result).toEqual({
      result: 'hooked',
      nextLookAt: new Date(tick + 50 * MINUTE).toISOString(),
      counted: false,
    });
    expect(run.fetches()).toBe(0);
  });

  it('keeps the hook when the safety look finds the import of a commit made before the last webhook', async () => {
    const run = await tickOf({
      hookAt: tick - 20 * MINUTE,
      lookAt: tick - 61 * MINUTE,
      committedAt: new Date(tick - 25 * MINUTE),
    });
    expect(run.result).toMatchObject({ result: 'polled', imports: 2 });
    expect(await run.stores.hooks.get('./repo', MINUTE)).toEqual({
      hookAt: tick - 20 * MINUTE,
      lookAt: tick,
    });
  });

  it('forgets the hook when the safety look finds a commit made after the last webhook', async () => {
    const run = await tickOf({ hookAt: tick - 70 * MINUTE, committedAt: new Date(tick - 5 * MINUTE) });
    expect(run.result).toMatchObject({ result: 'polled', imports: 2 });
    expect(await run.stores.hooks.get('./repo', MINUTE)).toEqual({});
  });

  it('fails every mapping with the one look that failed, and looks again on the next tick', async () => {
    const refused = new Error('git fetch: the host did not answer');
    const run = await tickOf({
      hookAt: tick - 70 * MINUTE,
      fetch: async () => {
        throw refused;
      },
    });
    expect(run.fetches()).toBe(1);
    expect(run.result).toMatchObject({ result: 'polled', failed: 2 });
    expect(run.outcomes.map((one) => [one.unit, one.outcome])).toEqual([
      [{ mapping: 'guide' }, { failed: refused }],
      [{ mapping: 'api' }, { failed: refused }],
    ]);
    expect(await run.stores.hooks.get('./repo', MINUTE)).toEqual({ hookAt: tick - 70 * MINUTE });
  });
});
