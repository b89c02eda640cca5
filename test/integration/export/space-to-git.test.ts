import { readdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import type { StoredPage } from '../../../src/emulator/emulator-state.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { createTestRepo, type TestRepo } from '../../support/git-repos.js';
import { nextRuns } from '../../support/job-runs.js';
import { addRevision, editInService, findPage, testPage } from '../../support/service-content.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { createTestSpace, startTestEmulator, type TestEmulator } from '../../support/start-test-emulator.js';
import { exportOf, stateWhere } from '../../support/state-where.js';
import { requestCounts } from '../../support/test-api-client.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';

const IMPORT_ROUTE = 'POST /v1/spaces/:s/change-requests/:cr/content/import';
const FIRST_DOCS = {
  'docs/README.md': '# Welcome\n\nSee [install](install.md).\n',
  'docs/install.md': '# Install\n\nRun it.\n',
  'src/app.js': 'x\n',
};

interface MappingYaml {
  name: string;
  space: string;
  repo: TestRepo;
  direction: 'git-to-space' | 'space-to-git' | 'both';
  extra?: string;
}

async function startDaemon(emulator: TestEmulator, mappings: MappingYaml[]) {
  const prefix = uniquePrefix('space-to-git');
  const redis = testRedis(prefix);
  const yaml = `mappings:
${mappings
  .map(
    (mapping) => `  - name: ${mapping.name}
    space: ${mapping.space}
    direction: ${mapping.direction}
    git: { repo: ${mapping.repo.remote}, branch: main, dir: docs, poll: 1s }
    export: { poll: 1s, author: { name: Docs Bot, email: docs-bot@example.com } }${mapping.extra ?? ''}`,
  )
  .join('\n')}
`;
  const daemon = await startTestDaemon({ prefix, jobs: JOBS, service: emulator, yaml });
  return { daemon, state: new RedisMappingStateStore(redis, prefix) };
}

async function docsRepo(): Promise<TestRepo> {
  const repo = await createTestRepo();
  await repo.commit(FIRST_DOCS, 'Write the first docs');
  await repo.push();
  return repo;
}

/** An edit made by a writer in the service: a new revision of the space. */
const editSpace = (emulator: TestEmulator, space: string, edit: (pages: StoredPage[]) => void) =>
  editInService(emulator.emulator, { spaceId: space }, edit).id;

async function remote(repo: TestRepo, ...args: string[]): Promise<string> {
  return repo.git('--git-dir', repo.remote, ...args);
}

const importCount = async (emulator: TestEmulator) =>
  (await requestCounts(emulator)).counts[IMPORT_ROUTE] ?? 0;

/** Two more runs of each poll, so that at least one whole run of each started after the call. */
async function nextPolls(lines: ReadonlyArray<Record<string, unknown>>, ...names: string[]) {
  const runs = await Promise.all(names.map((name) => nextRuns([lines], name, 2)));
  return runs.flat();
}

describe('space to git', () => {
  it('commits an edit made in the service once, with the trailer, and never imports it back', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await docsRepo();
    const first = await repo.git('rev-parse', 'HEAD');
    const { daemon, state } = await startDaemon(emulator, [
      {
        name: 'docs',
        space,
        repo,
        direction: 'both',
        extra: '\n    changeRequest: { poll: 1s }\n    merge: { enabled: true, approvals: 0 }',
      },
    ]);

    // The import is merged; the merged revision is docsync's own: recorded, not exported.
    const merged = await stateWhere(state, 'docs', (s) => s.exportBase === first, 'the merged import');
    expect(merged.lastSeenRevision).toBe(emulator.emulator.state.spaces[space]?.revision);
    expect(merged.lastExport).toBeUndefined();
    expect(await remote(repo, 'rev-list', '--count', 'main')).toBe('1');

    const revision = editSpace(emulator, space, (pages) => {
      findPage(pages, 'install.md').markdown = '# Install\n\nRun it, then check the logs.\n';
    });
    const exported = await exportOf(state, 'docs', revision, 'the export of the edit');
    expect(exported.lastExport?.result).toBe('committed');
    const sha = await remote(repo, 'rev-parse', 'main');
    expect(exported.lastExport?.sha).toBe(sha);
    expect(await remote(repo, 'rev-parse', 'main^')).toBe(first);
    expect(await remote(repo, 'log', '-1', '--format=%an <%ae>%n%B', 'main')).toBe(
      `Docs Bot <docs-bot@example.com>\ndocs: edits from ${space} (revision ${revision})\n\nExported by docsync from the documentation service.\n\nDocsync-Revision: ${revision}`,
    );
    // Only the edited page changed; the rest of the repository is as it was, byte for byte.
    expect(await remote(repo, 'diff', '--name-only', first, sha)).toBe('docs/install.md');
    expect(await remote(repo, 'show', `${sha}:docs/install.md`)).toBe(
      '# Install\n\nRun it, then check the logs.',
    );

    // The git poll sees docsync's commit and imports nothing; the space poll sees nothing new.
    const imports = await importCount(emulator);
    const polls = await nextPolls(daemon.lines, 'poll-git', 'poll-space');
    expect(polls.map((poll) => poll.result)).not.toContain('import-queued');
    expect(polls.map((poll) => poll.result)).not.toContain('export-queued');
    expect(await importCount(emulator)).toBe(imports);
    expect(await remote(repo, 'rev-list', '--count', 'main')).toBe('2');
    expect((await state.get('docs')).exportBase).toBe(sha);
  });

  it('makes no commit for content git has, merges file by file, and sends only files both sides changed to a conflict branch', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await docsRepo();
    const first = await repo.git('rev-parse', 'HEAD');
    addRevision(emulator.emulator, { spaceId: space }, [
      {
        ...testPage('pg_readme', 'welcome'),
        title: 'Welcome',
        sourcePath: 'README.md',
        markdown: FIRST_DOCS['docs/README.md'],
      },
      {
        ...testPage('pg_install', 'install'),
        title: 'Install',
        sourcePath: 'install.md',
        markdown: FIRST_DOCS['docs/install.md'],
      },
    ]);
    const { daemon, state } = await startDaemon(emulator, [
      { name: 'docs', space, repo, direction: 'space-to-git' },
    ]);

    // The space holds what git holds: nothing to commit.
    const same = await stateWhere(state, 'docs', (s) => s.lastExport !== undefined, 'the first export');
    expect(same.lastExport?.result).toBe('unchanged');
    expect(same.exportBase).toBe(first);
    expect(await remote(repo, 'rev-parse', 'main')).toBe(first);

    // Git changes one page, a writer another: both land on the branch, git's page as git has it.
    const gitEdit = await repo.commit(
      { 'docs/install.md': '# Install\n\nRun it with sudo.\n' },
      'Install as root',
    );
    await repo.push();
    const edit = editSpace(emulator, space, (pages) => {
      findPage(pages, 'README.md').markdown = '# Welcome\n\nWelcome aboard.\n';
    });
    const merged = await exportOf(state, 'docs', edit, 'the export');
    expect(merged.lastExport).toMatchObject({ result: 'committed', keptFromGit: ['install.md'] });
    expect(await remote(repo, 'rev-parse', 'main^')).toBe(gitEdit);
    expect(await remote(repo, 'show', 'main:docs/README.md')).toBe('# Welcome\n\nWelcome aboard.');
    expect(await remote(repo, 'show', 'main:docs/install.md')).toBe('# Install\n\nRun it with sudo.');
    expect(await remote(repo, 'branch', '--list', 'docsync/*')).toBe('');

    // Both change the readme, differently: only that file goes to a conflict branch, on the last
    // commit the space equalled whole, so that merging it shows the conflict.
    await repo.git('pull', '--quiet', '--ff-only', 'origin', 'main');
    const gitReadme = await repo.commit({ 'docs/README.md': '# Welcome\n\nHello from git.\n' }, 'Greet');
    await repo.push();
    const revision = editSpace(emulator, space, (pages) => {
      findPage(pages, 'README.md').markdown = '# Welcome\n\nWelcome aboard, writers.\n';
    });
    const conflict = await exportOf(state, 'docs', revision, 'the conflicting export');
    const branch = `docsync/conflict-${revision}`;
    expect(conflict.lastExport).toMatchObject({ result: 'conflict', branch, changedInGit: ['README.md'] });
    expect(conflict.pendingConflict).toMatchObject({ branch, revision });
    expect(await remote(repo, 'rev-parse', 'main')).toBe(gitReadme);
    const conflictSha = await remote(repo, 'rev-parse', branch);
    expect(await remote(repo, 'rev-parse', `${branch}^`)).toBe(first);
    expect(await remote(repo, 'diff', '--name-only', first, branch)).toBe('docs/README.md');
    expect(await remote(repo, 'show', `${conflictSha}:docs/README.md`)).toBe(
      '# Welcome\n\nWelcome aboard, writers.',
    );
    expect(
      daemon.lines.some(
        (line) =>
          line.level === 'warn' && line.branch === branch && String(line.msg).includes('conflict branch'),
      ),
    ).toBe(true);
    const status = (await (await fetch(`${daemon.httpAddress}/status`)).json()) as {
      mappings: Array<Record<string, unknown>>;
    };
    expect(status.mappings[0]).toMatchObject({
      lastExport: { result: 'conflict', branch },
      pendingConflict: { branch },
    });

    // A person merges the conflict branch (git shows the readme's conflict; they take the writer's
    // text), and the next edit in the service lands on the branch itself.
    await repo.git('fetch', '--quiet', 'origin', `${branch}:${branch}`);
    await repo.git('merge', '--quiet', '--no-edit', '-X', 'theirs', branch);
    await repo.push();
    const next = editSpace(emulator, space, (pages) => {
      findPage(pages, 'install.md').markdown = '# Install\n\nRun it with sudo.\n';
      findPage(pages, 'README.md').markdown = '# Welcome\n\nWelcome aboard, all.\n';
    });
    const committed = await exportOf(state, 'docs', next, 'the next export');
    expect(committed.lastExport?.result).toBe('committed');
    expect(committed.pendingConflict).toBeUndefined();
    expect(await remote(repo, 'rev-parse', 'main^')).toBe(await repo.git('rev-parse', 'HEAD'));
    expect(await remote(repo, 'show', 'main:docs/README.md')).toBe('# Welcome\n\nWelcome aboard, all.');
    expect(await remote(repo, 'show', 'main:docs/install.md')).toBe('# Install\n\nRun it with sudo.');
  });

  it('refuses a revision with a page path outside the folder, names the pages, and writes nothing', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await docsRepo();
    const first = await repo.git('rev-parse', 'HEAD');
    const revision = addRevision(emulator.emulator, { spaceId: space }, [
      { ...testPage('pg_readme', 'welcome'), sourcePath: 'README.md' },
      { ...testPage('pg_escape', 'escape'), title: 'Escape', sourcePath: '../../outside.md' },
      { ...testPage('pg_git', 'hooks'), title: 'Hooks', sourcePath: '.git/hooks/post-checkout.md' },
      { ...testPage('pg_nul', 'nul'), title: 'Nul', sourcePath: 'a\u0000b.md' },
    ]).id;
    const { daemon, state } = await startDaemon(emulator, [
      { name: 'docs', space, repo, direction: 'space-to-git' },
    ]);

    const failed = await stateWhere(state, 'docs', (s) => s.lastError !== undefined, 'the refused export');
    expect(failed.lastError?.code).toBe('EXPORT_PATH_UNSAFE');
    expect(failed.lastError?.message).toContain(`revision ${revision}`);
    for (const named of ['page "Escape" (pg_escape)', 'page "Hooks" (pg_git)', 'page "Nul" (pg_nul)'])
      expect(failed.lastError?.message).toContain(named);
    expect(failed.lastError?.message).not.toContain('pg_readme');
    // Failed closed: the job is not retried, no commit and no branch, nothing next to the remote.
    await nextPolls(daemon.lines, 'poll-space');
    expect(await remote(repo, 'for-each-ref', '--format=%(refname) %(objectname)')).toBe(
      `refs/heads/main ${first}`,
    );
    expect(await readdir(dirname(repo.remote))).toEqual(['remote.git', 'work']);
    const failures = daemon.lines.filter((line) => line.code === 'EXPORT_PATH_UNSAFE');
    expect(failures.length).toBeGreaterThan(0);
    expect((await state.get('docs')).lastExport).toBeUndefined();
  });

  it('honours direction: git-to-space exports nothing, space-to-git imports nothing', async () => {
    const emulator = await startTestEmulator();
    const intoSpace = await createTestSpace(emulator, 'Into the space');
    const fromSpace = await createTestSpace(emulator, 'From the space');
    const importing = await docsRepo();
    const exporting = await docsRepo();
    const { daemon, state } = await startDaemon(emulator, [
      { name: 'in', space: intoSpace, repo: importing, direction: 'git-to-space' },
      { name: 'out', space: fromSpace, repo: exporting, direction: 'space-to-git' },
    ]);
    await stateWhere(state, 'in', (s) => s.changeRequestId !== undefined, 'the import of mapping in');
    const inHead = await remote(importing, 'rev-parse', 'main');

    // Edits in both spaces: only the space-to-git mapping's reaches git.
    editSpace(emulator, intoSpace, (pages) => {
      pages.push({ ...testPage('pg_new', 'new'), sourcePath: 'new.md' });
    });
    const revision = addRevision(emulator.emulator, { spaceId: fromSpace }, [
      {
        ...testPage('pg_readme', 'welcome'),
        title: 'Welcome',
        sourcePath: 'README.md',
        markdown: '# Welcome\n',
      },
    ]).id;
    await exportOf(state, 'out', revision, 'the export of mapping out');
    expect(await remote(exporting, 'ls-tree', '-r', '--name-only', 'main')).toBe(
      'docs/README.md\nsrc/app.js',
    );

    // A commit to the space-to-git mapping's folder is not imported.
    const imports = await importCount(emulator);
    await exporting.git('pull', '--quiet', '--ff-only', 'origin', 'main');
    await exporting.commit({ 'docs/usage.md': '# Usage\n' }, 'Add usage');
    await exporting.push();
    const polls = await nextPolls(daemon.lines, 'poll-git', 'poll-space');
    expect(polls.map((poll) => poll.result)).not.toContain('import-queued');
    expect(await importCount(emulator)).toBe(imports);
    expect(await remote(importing, 'rev-parse', 'main')).toBe(inHead);
    const inState = await state.get('in');
    expect(inState.lastSeenRevision).toBeUndefined();
    expect(inState.lastExport).toBeUndefined();
  });

  it('deletes nothing on a first export with no base: files the space never held stay in git', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await createTestRepo();
    await repo.commit(
      { ...FIRST_DOCS, 'docs/guide.md': '# Guide\n', 'docs/logo.png': 'not really a png\n' },
      'Docs the space never held',
    );
    await repo.push();
    const first = await repo.git('rev-parse', 'HEAD');
    addRevision(emulator.emulator, { spaceId: space }, [
      {
        ...testPage('pg_readme', 'welcome'),
        title: 'Welcome',
        sourcePath: 'README.md',
        markdown: '# Welcome\n\nFrom the service.\n',
      },
    ]);
    const { state } = await startDaemon(emulator, [{ name: 'docs', space, repo, direction: 'space-to-git' }]);

    const exported = await stateWhere(state, 'docs', (s) => s.lastExport !== undefined, 'the first export');
    expect(exported.lastExport?.result).toBe('committed');
    const sha = await remote(repo, 'rev-parse', 'main');
    // The space's page is written; the pages and files it never held are not taken for deletions.
    expect(await remote(repo, 'diff', '--name-status', first, sha)).toBe('M\tdocs/README.md');
  });
});
