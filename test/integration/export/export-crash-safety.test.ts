// An export stopped after pushing but before saving its state (a kill -9, a lost Redis) runs again
// without losing or repeating anything: the edits already on the branch are not committed twice, a
// conflict branch already pushed is found again, and git moving meanwhile on other files keeps the
// service's edit on the branch instead of sending it to a conflict branch.
import { describe, expect, it } from 'vitest';
import { runExport } from '../../../src/export/run-export.js';
import type { MappingStatePatch } from '../../../src/state/mapping-state.js';
import { MemoryMappingStateStore } from '../../../src/state/memory-mapping-state-store.js';
import { startExportWorld } from '../../support/export-world.js';
import { findPage } from '../../support/service-content.js';

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
  const state = new CrashingStateStore();
  const world = await startExportWorld(state, 'space-to-git');
  const deps = await world.processDeps('crash-mirror');
  return { ...world, state, deps };
}

describe('an export that stopped before saving its state', () => {
  it('commits the edit once when it runs again, with git moved on other files meanwhile', async () => {
    const { repo, state, mapping, deps, edit, remote } = await setUp();
    edit((pages) => {
      findPage(pages, 'usage.md').markdown = '# Usage\n\nFrom the service.\n';
    });
    state.crashNext = true;
    await expect(runExport(deps, mapping)).rejects.toThrow('killed before the state was saved');
    const pushed = await remote('rev-parse', 'main');
    expect(await remote('show', 'main:docs/usage.md')).toBe('# Usage\n\nFrom the service.');

    // A writer commits to another file before the export runs again.
    await repo.git('pull', '--quiet', '--ff-only', 'origin', 'main');
    const gitEdit = await repo.commit({ 'docs/install.md': '# Install\n\nFrom git.\n' }, 'Edit in git');
    await repo.push();
    const again = await runExport(deps, mapping);
    expect(again).toMatchObject({ result: 'unchanged', keptFromGit: ['install.md'] });
    expect(await remote('rev-parse', 'main')).toBe(gitEdit);
    expect(await remote('rev-list', '--count', `${pushed}~1..main`)).toBe('2');
    expect(await remote('branch', '--list', 'docsync/*')).toBe('');

    // The next edit in the service lands on the branch; git's file stays git's.
    edit((pages) => {
      findPage(pages, 'README.md').markdown = '# Welcome\n\nAgain from the service.\n';
    });
    expect(await runExport(deps, mapping)).toMatchObject({
      result: 'committed',
      keptFromGit: ['install.md'],
    });
    expect(await remote('show', 'main:docs/install.md')).toBe('# Install\n\nFrom git.');
    expect(await remote('show', 'main:docs/usage.md')).toBe('# Usage\n\nFrom the service.');
  });

  it('commits a later edit of the same file instead of taking its own push for a change in git', async () => {
    const { state, mapping, deps, edit, remote } = await setUp();
    edit((pages) => {
      findPage(pages, 'usage.md').markdown = '# Usage\n\nFrom the service.\n';
    });
    state.crashNext = true;
    await expect(runExport(deps, mapping)).rejects.toThrow('killed before the state was saved');
    const pushed = await remote('rev-parse', 'main');

    // The same page is edited again in the service before the export runs again.
    edit((pages) => {
      findPage(pages, 'usage.md').markdown = '# Usage\n\nFrom the service, twice.\n';
    });
    expect(await runExport(deps, mapping)).toMatchObject({ result: 'committed', branch: 'main' });
    expect(await remote('rev-parse', 'main^')).toBe(pushed);
    expect(await remote('show', 'main:docs/usage.md')).toBe('# Usage\n\nFrom the service, twice.');
    expect(await remote('branch', '--list', 'docsync/*')).toBe('');
    expect((await state.get('docs')).exportBase).toBe(await remote('rev-parse', 'main'));
  });

  it('forgets the state it wrote ahead of a push that did not land', async () => {
    const { first, state, mapping, deps, edit, remote } = await setUp();
    edit((pages) => {
      findPage(pages, 'usage.md').markdown = '# Usage\n\nFrom the service.\n';
    });
    const push = deps.mirror.push.bind(deps.mirror);
    deps.mirror.push = () => Promise.reject(new Error('the connection dropped'));
    await expect(runExport(deps, mapping)).rejects.toThrow('the connection dropped');
    expect(await remote('rev-parse', 'main')).toBe(first);
    expect((await state.get('docs')).exportAhead).toMatchObject({ exportBase: expect.any(String) });

    deps.mirror.push = push;
    expect(await runExport(deps, mapping)).toMatchObject({ result: 'committed', branch: 'main' });
    const after = await state.get('docs');
    expect(after.exportAhead).toBeUndefined();
    expect(after.exportBase).toBe(await remote('rev-parse', 'main'));
    expect(await remote('rev-parse', 'main^')).toBe(first);
  });

  it('finds its conflict branch again instead of failing to push it', async () => {
    const { repo, first, state, mapping, deps, edit, remote } = await setUp();
    const gitEdit = await repo.commit({ 'docs/usage.md': '# Usage\n\nFrom git.\n' }, 'Edit in git');
    await repo.push();
    const revision = edit((pages) => {
      findPage(pages, 'usage.md').markdown = '# Usage\n\nFrom the service.\n';
    });
    state.crashNext = true;
    await expect(runExport(deps, mapping)).rejects.toThrow('killed before the state was saved');
    const branch = `docsync/conflict-${revision}`;
    const pushed = await remote('rev-parse', branch);

    const again = await runExport(deps, mapping);
    expect(again).toMatchObject({ result: 'conflict', branch, sha: pushed, changedInGit: ['usage.md'] });
    expect(await remote('rev-parse', branch)).toBe(pushed);
    expect(await remote('rev-parse', `${branch}^`)).toBe(first);
    expect(await remote('rev-parse', 'main')).toBe(gitEdit);
    expect((await state.get('docs')).pendingConflict).toMatchObject({ sha: pushed, branch });
  });
});
