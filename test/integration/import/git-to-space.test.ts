import { createHmac } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { resumeMapping } from '../../../src/producers/resume-mapping.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { createTestRepo } from '../../support/git-repos.js';
import { completedRuns, nextRuns } from '../../support/job-runs.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import {
  callApi,
  createTestSpace,
  startTestEmulator,
  type TestEmulator,
} from '../../support/start-test-emulator.js';
import { requestCounts } from '../../support/test-api-client.js';
import { tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const IMPORT_ROUTE = 'POST /v1/spaces/:s/change-requests/:cr/content/import';
const HOOK_SECRET = 'a-webhook-secret-for-tests';

interface ChangeRequest {
  id: string;
  number: number;
  subject: string;
  revision: string;
}

async function setUp(options: { watchWorkingCopy?: boolean; poll?: string; dir?: string } = {}) {
  const emulator = await startTestEmulator();
  const space = await createTestSpace(emulator, 'Docs');
  const repo = await createTestRepo();
  await repo.commit(
    {
      'docs/README.md': '# Welcome\n\nSee [install](install.md).\n',
      'docs/install.md': '# Install\n\nRun it.\n',
      'src/app.js': 'x\n',
    },
    'Write the first docs',
  );
  await repo.push();
  const prefix = uniquePrefix('git-to-space');
  const redis = testRedis(prefix);
  const watch =
    options.watchWorkingCopy === true ? `\n      watch: { path: ${repo.work}, debounce: 300ms }` : '';
  const yaml = `hooks: { secret: ${HOOK_SECRET} }
mappings:
  - name: docs
    space: ${space}
    git:
      repo: ${repo.remote}
      branch: main
      dir: ${options.dir ?? 'docs'}
      poll: ${options.poll ?? '1s'}${watch}
`;
  const daemon = await startTestDaemon({ prefix, jobs: JOBS, service: emulator, yaml });
  const state = new RedisMappingStateStore(redis, prefix);
  return { emulator, space, repo, daemon, state, redis, prefix };
}

async function changeRequests(emulator: TestEmulator, space: string): Promise<ChangeRequest[]> {
  return (
    await callApi<{ items: ChangeRequest[] }>(
      `${emulator.baseUrl}/spaces/${space}/change-requests`,
      emulator.tokens.admin,
    )
  ).body.items;
}

async function importCount(emulator: TestEmulator): Promise<number> {
  return (await requestCounts(emulator)).counts[IMPORT_ROUTE] ?? 0;
}

async function pageTitles(emulator: TestEmulator, space: string, cr: string): Promise<string[]> {
  const { pages } = (
    await callApi<{ pages: Array<{ title: string }> }>(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${cr}/content/pages`,
      emulator.tokens.admin,
    )
  ).body;
  return pages.map((page) => page.title);
}

async function importedSha(state: RedisMappingStateStore, sha: string) {
  return waitFor(
    async () => ((await state.get('docs')).lastImportedSha === sha ? true : undefined),
    `the import of ${sha.slice(0, 7)}`,
  );
}

describe('git to space', () => {
  it('imports a commit into one change request with its pages, and later commits into the same one', async () => {
    const { emulator, space, repo, state } = await setUp();
    const first = await repo.git('rev-parse', 'HEAD');
    await importedSha(state, first);
    const [cr] = await changeRequests(emulator, space);
    expect(cr?.subject).toMatch(
      /^docs: Write the first docs \([0-9a-f]{7}\) \[docsync [0-9a-f]{8}\] @[0-9a-f]{12}$/,
    );
    expect(await pageTitles(emulator, space, cr?.id ?? '')).toEqual(['Welcome', 'Install']);

    // Two quick commits: one import, of the newest, into the same change request.
    await repo.commit({ 'docs/install.md': '# Install\n\nRun it twice.\n' }, 'Clarify install');
    const newest = await repo.commit({ 'docs/usage.md': '# Usage\n' }, 'Add usage');
    const before = await importCount(emulator);
    await repo.push();
    await importedSha(state, newest);
    expect(await importCount(emulator)).toBe(before + 1);
    const now = await changeRequests(emulator, space);
    expect(now).toHaveLength(1);
    expect(now[0]?.id).toBe(cr?.id);
    expect(now[0]?.subject).toMatch(/^docs: Add usage /);
    expect(await pageTitles(emulator, space, cr?.id ?? '')).toEqual(['Welcome', 'Install', 'Usage']);
  });

  it('imports nothing for commits outside the folder, with docsync trailer, or with the same content', async () => {
    const { emulator, repo, state, daemon } = await setUp();
    await importedSha(state, await repo.git('rev-parse', 'HEAD'));
    const before = await importCount(emulator);
    await repo.commit({ 'src/app.js': 'y\n' }, 'Change the code only');
    await repo.commit(
      { 'docs/install.md': '# Install\n\nFrom the space.\n' },
      'docs: export from the space\n\nDocsync-Revision: rev_123',
    );
    await repo.push();
    // Two polls pass with nothing to do.
    const polls = await nextRuns([daemon.lines], 'poll-git', 2);
    expect(polls.map((poll) => poll.result)).not.toContain('import-queued');
    expect(await importCount(emulator)).toBe(before);

    // A person's commit that ends with the same folder content as the last import: no new import.
    const same = await repo.commit(
      { 'docs/install.md': '# Install\n\nRun it.\n' },
      'Revert the install text',
    );
    await repo.push();
    await waitFor(
      async () => ((await state.get('docs')).lastImport?.result === 'unchanged' ? true : undefined),
      'the unchanged import',
    );
    expect((await state.get('docs')).lastImportedSha).toBe(same);
    expect(await importCount(emulator)).toBe(before);
  });

  it('pauses the mapping when the branch is force-pushed, and says so in /status', async () => {
    const { emulator, repo, state, daemon } = await setUp();
    await importedSha(state, await repo.git('rev-parse', 'HEAD'));
    await repo.git('commit', '--quiet', '--amend', '-m', 'Rewritten history');
    await repo.push(true);
    await waitFor(async () => (await state.get('docs')).paused, 'the pause');
    const before = await importCount(emulator);
    const status = (await (await fetch(`${daemon.httpAddress}/status`)).json()) as {
      mappings: Array<{ name: string; state: string; paused?: { reason: string } }>;
    };
    expect(status.mappings[0]).toMatchObject({
      name: 'docs',
      state: 'paused',
      paused: { reason: 'force-push' },
    });
    await repo.commit({ 'docs/more.md': '# More\n' }, 'More after the rewrite');
    await repo.push();
    const polls = await nextRuns([daemon.lines], 'poll-git', 2);
    expect(polls.map((poll) => poll.result)).not.toContain('import-queued');
    expect(await importCount(emulator)).toBe(before);

    // Once a person has looked, resuming imports the rewritten branch's head rather than pausing again.
    await resumeMapping(state, daemon.queues.get('import'), 'docs', () => new Date());
    await importedSha(state, await repo.git('rev-parse', 'HEAD'));
    expect((await state.get('docs')).paused).toBeUndefined();
    expect(await importCount(emulator)).toBe(before + 1);
  });

  it('skips an import of an older commit that runs after a newer one', async () => {
    const { repo, state, daemon, space } = await setUp();
    const older = await repo.git('rev-parse', 'HEAD');
    await importedSha(state, older);
    const newer = await repo.commit({ 'docs/newer.md': '# Newer\n' }, 'Newer');
    await repo.push();
    await importedSha(state, newer);
    // A retried import of the older commit, running late.
    const late = await daemon.queues.get('import').add('import-content', {
      source: 'git',
      mapping: 'docs',
      space,
      sha: older,
      commit: { sha: older, subject: 'late', authorName: 'Ada' },
    });
    await waitFor(async () => (await late.isCompleted()) || undefined, 'the late import');
    const done = await daemon.queues.get('import').getJob(late.id ?? '');
    expect(done?.returnvalue).toMatchObject({ result: 'superseded' });
    expect((await state.get('docs')).lastImportedSha).toBe(newer);
  });

  it('reports a folder missing from the branch in /status', async () => {
    const { daemon, state } = await setUp({ dir: 'handbook' });
    const error = await waitFor(async () => (await state.get('docs')).lastError, 'the recorded failure');
    expect(error).toMatchObject({ code: 'FOLDER_NOT_FOUND' });
    expect(error.message).toMatch(/^folder handbook does not exist on branch main of mapping docs/);
    const status = (await (await fetch(`${daemon.httpAddress}/status`)).json()) as {
      mappings: Array<{ lastError?: { code: string } }>;
    };
    expect(status.mappings[0]?.lastError?.code).toBe('FOLDER_NOT_FOUND');
  });

  it('polls at once on a signed push webhook, and refuses a bad signature', async () => {
    const { repo, state, daemon } = await setUp({ poll: '1h' });
    const push = (signature: string | undefined, body: string) =>
      fetch(`${daemon.httpAddress}/hooks/git`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'push',
          ...(signature === undefined ? {} : { 'x-hub-signature-256': signature }),
        },
        body,
      });
    const head = await repo.git('rev-parse', 'HEAD');
    const body = JSON.stringify({
      ref: 'refs/heads/main',
      after: head,
      before: '0'.repeat(40),
      repository: { clone_url: repo.remote, html_url: repo.remote },
    });
    expect((await push(undefined, body)).status).toBe(401);
    expect(
      (await push(`sha256=${createHmac('sha256', 'wrong-secret').update(body).digest('hex')}`, body)).status,
    ).toBe(401);
    // The scheduler's first tick already imported the head; a new commit waits for the hook.
    await importedSha(state, head);
    const next = await repo.commit({ 'docs/hooked.md': '# Hooked\n' }, 'Pushed with a hook');
    await repo.push();
    const hooked = JSON.stringify({
      ref: 'refs/heads/main',
      after: next,
      repository: { clone_url: repo.remote },
    });
    const answer = await push(
      `sha256=${createHmac('sha256', HOOK_SECRET).update(hooked).digest('hex')}`,
      hooked,
    );
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({ triggered: 1 });
    await importedSha(state, next);
  });
});

describe('a watched working copy', () => {
  it('imports a saved change within the debounce plus one second', async () => {
    const { emulator, state, repo } = await setUp({ watchWorkingCopy: true, poll: '1h' });
    // The git poll's first import, then the working copy's import at start (one debounce later,
    // unchanged): a save made before the latter would be imported by it, not by the save's own.
    await waitFor(
      async () => ((await state.get('docs')).lastImport?.source === 'worktree' ? true : undefined),
      'the import of the working copy at start',
    );
    const before = await importCount(emulator);
    await writeFile(join(repo.work, 'docs', 'README.md'), '# Local\n\nEdited and saved.\n');
    await waitFor(
      async () => (await importCount(emulator)) > before,
      'the import of the saved change',
      300 + 1000,
    );
    await waitFor(async () => {
      const last = (await state.get('docs')).lastImport;
      return last?.source === 'worktree' && last.result === 'imported' ? last : undefined;
    }, 'the state of the import of the saved change');
  });
});

describe('a daemon restarted between a commit and its import', () => {
  it('imports the commit once', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await createTestRepo();
    const sha = await repo.commit({ 'docs/README.md': '# Once\n' }, 'Only once');
    await repo.push();
    const prefix = uniquePrefix('restart');
    const redis = testRedis(prefix);
    // The second daemon is the first restarted: the same data folder.
    const dataDir = await tempDir('daemon-data');
    const yaml = `locks: { busyDelay: 100ms }
mappings:
  - { name: docs, space: ${space}, git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1h } }
`;
    // Another process holds the space: the first daemon queues the import but cannot run it.
    await redis.set(`${prefix}:lock:space:${space}`, 'another-process', 'PX', 60_000);
    const first = await startTestDaemon({ prefix, jobs: JOBS, service: emulator, dataDir, yaml });
    await waitFor(
      async () =>
        (await first.queues.get('import').getJobState(`import/docs/${sha}`)) === 'delayed' ? true : undefined,
      'the queued import',
    );
    await first.shutdown.run('restart');
    await redis.del(`${prefix}:lock:space:${space}`);

    const second = await startTestDaemon({ prefix, jobs: JOBS, service: emulator, dataDir, yaml });
    const state = new RedisMappingStateStore(redis, prefix);
    await importedSha(state, sha);
    // The link check is the last job the import queues: once it ran, the import's work is done.
    await waitFor(
      () => completedRuns(second.lines, 'check-links').length > 0,
      'the link check of the import',
    );
    expect(completedRuns(second.lines, 'import-content')).toHaveLength(1);
    expect(await importCount(emulator)).toBe(1);
    expect(await changeRequests(emulator, space)).toHaveLength(1);
  });
});

describe('dry run', () => {
  it('plans the import and changes nothing', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await createTestRepo();
    await repo.commit({ 'docs/README.md': '# Planned\n' }, 'Planned only');
    await repo.push();
    const prefix = uniquePrefix('dry-run');
    const redis = testRedis(prefix);
    const yaml = `dryRun: true
mappings:
  - { name: docs, space: ${space}, git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1h } }
`;
    const daemon = await startTestDaemon({ prefix, jobs: JOBS, service: emulator, yaml });
    await waitFor(
      () => daemon.lines.find((line) => line.msg === 'dry run: would import into the change request'),
      'the planned import',
    );
    expect(await importCount(emulator)).toBe(0);
    expect(await changeRequests(emulator, space)).toEqual([]);
    expect((await new RedisMappingStateStore(redis, prefix).get('docs')).lastImportedSha).toBeUndefined();
  });
});

describe('the link check after an import', () => {
  it('logs each link that broke, then each that was fixed, once', async () => {
    const { repo, state, daemon, redis, prefix } = await setUp();
    await importedSha(state, await repo.git('rev-parse', 'HEAD'));
    const broken = await repo.commit(
      { 'docs/install.md': '# Install\n\nSee [the missing page](missing.md).\n' },
      'Link to a missing page',
    );
    await repo.push();
    await importedSha(state, broken);
    const brokenLine = await waitFor(
      () => daemon.lines.find((line) => line.msg === 'link broken'),
      'the broken link line',
    );
    expect(brokenLine).toMatchObject({ target: 'missing.md', page: 'install' });
    const fixed = await repo.commit({ 'docs/missing.md': '# Found\n' }, 'Add the missing page');
    await repo.push();
    await importedSha(state, fixed);
    await waitFor(() => daemon.lines.find((line) => line.msg === 'link fixed'), 'the fixed link line');
    expect(daemon.lines.filter((line) => line.msg === 'link broken')).toHaveLength(1);
    // Its own prefix only: other test files share the private Redis.
    const keys = await redis.keys(`${prefix}:state:links:*`);
    expect(keys).toHaveLength(1);
  });
});
