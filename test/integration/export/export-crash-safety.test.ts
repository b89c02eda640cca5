// An export stopped after pushing but before saving its state (a kill -9, a lost Redis) runs again
// without losing or repeating anything: the edits already on the branch are not committed twice, a
// conflict branch already pushed is found again, and git moving meanwhile on other files keeps the
// service's edit on the branch instead of sending it to a conflict branch.
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { mappingSchema } from '../../../src/config/mapping-schema.js';
import { runExport } from '../../../src/export/run-export.js';
import { GitMirror } from '../../../src/git/git-mirror.js';
import type { MappingStatePatch } from '../../../src/state/mapping-state.js';
import { MemoryMappingStateStore } from '../../../src/state/memory-mapping-state-store.js';
import { createTestRepo, type TestRepo } from '../../support/git-repos.js';
import { addRevision, editInService, findPage, testPage } from '../../support/service-content.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';
import { tempDir } from '../../support/test-context.js';

/**
 * A state store whose next saving of an export's outcome fails, as if the process died right after
 * pushing and before saving.
 */
class CrashingStateStore extends MemoryMappingStateStore {
  crashNext = false;

  override async update(mapping: string, patch: MappingStatePatch): Promise<void> {
    if (this.crashNext && patch.lastExport !== undefined) {
      this.crashNext = false;
      throw new Error('killed before the state was saved');
    }
    await super.update(mapping, patch);
  }
}

async function setUp() {
  const test = await startTestEmulator();
  const space = await createTestSpace(test, 'Docs');
  const repo = await createTestRepo();
  const pages = { 'README.md': 'Welcome', 'install.md': 'Install', 'usage.md': 'Usage' };
  const first = await repo.commit(
    {
      ...Object.fromEntries(Object.entries(pages).map(([path, title]) => [`docs/${path}`, `# ${title}\n`])),
      'docs/SUMMARY.md': `# Summary\n\n${Object.entries(pages)
        .map(([path, title]) => `* [${title}](${path})\n`)
        .join('')}`,
    },
    'Write the docs',
  );
  await repo.push();
  addRevision(
    test.emulator,
    { spaceId: space },
    Object.entries(pages).map(([path, title], index) => ({
      ...testPage(`pg_${index}`, title.toLowerCase()),
      title,
      sourcePath: path,
      markdown: `# ${title}\n`,
    })),
  );
  const state = new CrashingStateStore();
  await state.update('docs', { exportBase: first });
  const mapping = mappingSchema.parse({
    name: 'docs',
    space,
    direction: 'space-to-git',
    git: { repo: repo.remote, branch: 'main', dir: 'docs' },
  });
  const deps = {
    api: testApiClient(test).client,
    mirror: new GitMirror({
      repo: repo.remote,
      dir: join(await tempDir('crash-mirror'), 'mirror.git'),
      log: pino({ level: 'silent' }),
    }),
    state,
    log: pino({ level: 'silent' }),
    now: () => new Date(),
    signal: AbortSignal.timeout(30_000),
    dryRun: false,
  };
  const edit = (change: (pages: Parameters<typeof findPage>[0]) => void) =>
    editInService(test.emulator, { spaceId: space }, change).id;
  return { test, space, repo, first, state, mapping, deps, edit };
}

async function remote(repo: TestRepo, ...args: string[]): Promise<string> {
  return repo.git('--git-dir', repo.remote, ...args);
}

describe('an export that stopped before saving its state', () => {
  it('commits the edit once when it runs again, with git moved on other files meanwhile', async () => {
    const { repo, state, mapping, deps, edit } = await setUp();
    edit((pages) => {
      findPage(pages, 'usage.md').markdown = '# Usage\n\nFrom the service.\n';
    });
    state.crashNext = true;
    await expect(runExport(deps, mapping)).rejects.toThrow('killed before the state was saved');
    const pushed = await remote(repo, 'rev-parse', 'main');
    expect(await remote(repo, 'show', 'main:docs/usage.md')).toBe('# Usage\n\nFrom the service.');

    // A writer commits to another file before the export runs again.
    await repo.git('pull', '--quiet', '--ff-only', 'origin', 'main');
    const gitEdit = await repo.commit({ 'docs/install.md': '# Install\n\nFrom git.\n' }, 'Edit in git');
    await repo.push();
    const again = await runExport(deps, mapping);
    expect(again).toMatchObject({ result: 'unchanged', keptFromGit: ['install.md'] });
    expect(await remote(repo, 'rev-parse', 'main')).toBe(gitEdit);
    expect(await remote(repo, 'rev-list', '--count', `${pushed}~1..main`)).toBe('2');
    expect(await remote(repo, 'branch', '--list', 'docsync/*')).toBe('');

    // The next edit in the service lands on the branch; git's file stays git's.
    edit((pages) => {
      findPage(pages, 'README.md').markdown = '# Welcome\n\nAgain from the service.\n';
    });
    expect(await runExport(deps, mapping)).toMatchObject({
      result: 'committed',
      keptFromGit: ['install.md'],
    });
    expect(await remote(repo, 'show', 'main:docs/install.md')).toBe('# Install\n\nFrom git.');
    expect(await remote(repo, 'show', 'main:docs/usage.md')).toBe('# Usage\n\nFrom the service.');
  });

  it('commits a later edit of the same file instead of taking its own push for a change in git', async () => {
    const { repo, state, mapping, deps, edit } = await setUp();
    edit((pages) => {
      findPage(pages, 'usage.md').markdown = '# Usage\n\nFrom the service.\n';
    });
    state.crashNext = true;
    await expect(runExport(deps, mapping)).rejects.toThrow('killed before the state was saved');
    const pushed = await remote(repo, 'rev-parse', 'main');

    // The same page is edited again in the service before the export runs again.
    edit((pages) => {
      findPage(pages, 'usage.md').markdown = '# Usage\n\nFrom the service, twice.\n';
    });
    expect(await runExport(deps, mapping)).toMatchObject({ result: 'committed', branch: 'main' });
    expect(await remote(repo, 'rev-parse', 'main^')).toBe(pushed);
    expect(await remote(repo, 'show', 'main:docs/usage.md')).toBe('# Usage\n\nFrom the service, twice.');
    expect(await remote(repo, 'branch', '--list', 'docsync/*')).toBe('');
    expect((await state.get('docs')).exportBase).toBe(await remote(repo, 'rev-parse', 'main'));
  });

  it('forgets the state it wrote ahead of a push that did not land', async () => {
    const { repo, first, state, mapping, deps, edit } = await setUp();
    edit((pages) => {
      findPage(pages, 'usage.md').markdown = '# Usage\n\nFrom the service.\n';
    });
    const push = deps.mirror.push.bind(deps.mirror);
    deps.mirror.push = () => Promise.reject(new Error('the connection dropped'));
    await expect(runExport(deps, mapping)).rejects.toThrow('the connection dropped');
    expect(await remote(repo, 'rev-parse', 'main')).toBe(first);
    expect((await state.get('docs')).exportAhead).toMatchObject({ exportBase: expect.any(String) });

    deps.mirror.push = push;
    expect(await runExport(deps, mapping)).toMatchObject({ result: 'committed', branch: 'main' });
    const after = await state.get('docs');
    expect(after.exportAhead).toBeUndefined();
    expect(after.exportBase).toBe(await remote(repo, 'rev-parse', 'main'));
    expect(await remote(repo, 'rev-parse', 'main^')).toBe(first);
  });

  it('finds its conflict branch again instead of failing to push it', async () => {
    const { repo, first, state, mapping, deps, edit } = await setUp();
    const gitEdit = await repo.commit({ 'docs/usage.md': '# Usage\n\nFrom git.\n' }, 'Edit in git');
    await repo.push();
    const revision = edit((pages) => {
      findPage(pages, 'usage.md').markdown = '# Usage\n\nFrom the service.\n';
    });
    state.crashNext = true;
    await expect(runExport(deps, mapping)).rejects.toThrow('killed before the state was saved');
    const branch = `docsync/conflict-${revision}`;
    const pushed = await remote(repo, 'rev-parse', branch);

    const again = await runExport(deps, mapping);
    expect(again).toMatchObject({ result: 'conflict', branch, sha: pushed, changedInGit: ['usage.md'] });
    expect(await remote(repo, 'rev-parse', branch)).toBe(pushed);
    expect(await remote(repo, 'rev-parse', `${branch}^`)).toBe(first);
    expect(await remote(repo, 'rev-parse', 'main')).toBe(gitEdit);
    expect((await state.get('docs')).pendingConflict).toMatchObject({ sha: pushed, branch });
  });
});
