// An export of the revision it last exported, over the docs folder it left in git, reads no content:
// one call for the space's revision, one git lookup of the folder's tree, and nothing written to git.
// Anything else (a new revision, git's folder changed, an export stopped between its push and its
// state, a state lost) is read and compared in full, so nothing is lost and nothing loops.
import { describe, expect, it } from 'vitest';
import { runExport } from '../../../src/export/run-export.js';
import type { MappingStatePatch } from '../../../src/state/mapping-state.js';
import { MemoryMappingStateStore } from '../../../src/state/memory-mapping-state-store.js';
import { type ExportWorld, startExportWorld } from '../../support/export-world.js';
import { findPage } from '../../support/service-content.js';

/** A state store whose next saving of an export's outcome fails, as a process killed after its push. */
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

async function setUp(direction: 'space-to-git' | 'both' = 'space-to-git') {
  const state = new CrashingStateStore();
  const world = await startExportWorld(state, direction);
  const deps = await world.processDeps('unchanged-mirror');
  return { ...world, state, deps };
}

/** The service's requests made by `work`, by route, and git's refs before and after it. */
async function observed<T>(world: ExportWorld, work: () => Promise<T>) {
  const refs = () => world.remote('for-each-ref', '--format=%(refname) %(objectname)');
  const before = await refs();
  world.test.emulator.counter.reset();
  const value = await work();
  const { counts } = world.test.emulator.counter.snapshot();
  const contentReads = Object.entries(counts)
    .filter(([route]) => route.includes('/content'))
    .reduce((sum, [, count]) => sum + count, 0);
  return { value, counts, contentReads, refsMoved: (await refs()) !== before };
}

describe('an export of the revision it last exported', () => {
  it('reads no content and writes nothing while neither side changed', async () => {
    const world = await setUp();
    const { state, mapping, deps, edit, remote } = world;
    const full = await observed(world, () => runExport(deps, mapping));
    expect(full.value).toMatchObject({ result: 'unchanged' });
    expect(full.contentReads).toBeGreaterThan(0);
    const recorded = await state.get('docs');
    expect(recorded.lastExport?.tree).toBe(await remote('rev-parse', 'main:docs'));

    const again = await observed(world, () => runExport(deps, mapping));
    expect(again.value).toMatchObject({ result: 'unchanged', revision: full.value.revision });
    expect(again.contentReads).toBe(0);
    expect(again.counts).toEqual({ 'GET /v1/spaces/:s': 1 });
    expect(again.refsMoved).toBe(false);
    // The state stays the last export's.
    expect(await state.get('docs')).toEqual(recorded);

    // An edit in the service: read and committed in full, then settled again.
    const revision = edit((pages) => {
      findPage(pages, 'usage.md').markdown = '# Usage\n\nFrom the service.\n';
    });
    const edited = await observed(world, () => runExport(deps, mapping));
    expect(edited.value).toMatchObject({ result: 'committed', revision, branch: 'main' });
    expect(edited.contentReads).toBeGreaterThan(0);
    expect(await remote('show', 'main:docs/usage.md')).toBe('# Usage\n\nFrom the service.');
    const settled = await observed(world, () => runExport(deps, mapping));
    expect(settled.value).toMatchObject({ result: 'unchanged', revision });
    expect(settled.contentReads).toBe(0);
    expect(settled.refsMoved).toBe(false);
    // The commit stays the last export's: an import of an older commit imports it instead.
    const after = await state.get('docs');
    expect(after.lastExport).toMatchObject({ result: 'committed', sha: await remote('rev-parse', 'main') });
    expect(after.exportBase).toBe(await remote('rev-parse', 'main'));
  });

  it('compares in full once git changed the folder, and not for a change outside it', async () => {
    const world = await setUp('both');
    const { repo, state, mapping, deps, remote } = world;
    await runExport(deps, mapping);

    // A writer changes a file outside the docs folder: the folder's tree is the same.
    await repo.git('pull', '--quiet', '--ff-only', 'origin', 'main');
    await repo.commit({ 'src/app.js': 'y\n' }, 'Edit the code');
    await repo.push();
    const outside = await observed(world, () => runExport(deps, mapping));
    expect(outside.value).toMatchObject({ result: 'unchanged' });
    expect(outside.contentReads).toBe(0);

    // A writer changes a page in git: its import brings it to the service; the export keeps git's.
    const gitEdit = await repo.commit({ 'docs/install.md': '# Install\n\nFrom git.\n' }, 'Edit in git');
    await repo.push();
    const inside = await observed(world, () => runExport(deps, mapping));
    expect(inside.value).toMatchObject({ result: 'unchanged', keptFromGit: ['install.md'] });
    expect(inside.contentReads).toBeGreaterThan(0);
    expect(await remote('rev-parse', 'main')).toBe(gitEdit);
    expect(await remote('show', 'main:docs/install.md')).toBe('# Install\n\nFrom git.');

    // The same again: settled over git's new folder, git's version still kept.
    const again = await observed(world, () => runExport(deps, mapping));
    expect(again.value).toMatchObject({ result: 'unchanged', keptFromGit: ['install.md'] });
    expect(again.contentReads).toBe(0);
    expect(again.refsMoved).toBe(false);
    expect((await state.get('docs')).exportBase).toBe(inside.value.base);
  });

  it('compares in full after an export stopped between its push and its state', async () => {
    const world = await setUp();
    const { state, mapping, deps, edit, remote } = world;
    await runExport(deps, mapping);
    const revision = edit((pages) => {
      findPage(pages, 'install.md').markdown = '# Install\n\nFrom the service.\n';
    });
    state.crashNext = true;
    await expect(runExport(deps, mapping)).rejects.toThrow('killed before the state was saved');
    const pushed = await remote('rev-parse', 'main');
    const stopped = await state.get('docs');
    // Git holds the revision; the state still names the one before, with the next written ahead.
    expect(stopped.lastExport?.revision).not.toBe(revision);
    expect(stopped.exportAhead).toMatchObject({ sha: pushed });

    const recovered = await observed(world, () => runExport(deps, mapping));
    expect(recovered.value).toMatchObject({ result: 'unchanged', revision });
    expect(recovered.contentReads).toBeGreaterThan(0);
    expect(recovered.refsMoved).toBe(false);
    const after = await state.get('docs');
    expect(after.exportAhead).toBeUndefined();
    expect(after.exportBase).toBe(pushed);

    const settled = await observed(world, () => runExport(deps, mapping));
    expect(settled.value).toMatchObject({ result: 'unchanged', revision });
    expect(settled.contentReads).toBe(0);
    expect(await remote('rev-list', '--count', 'main')).toBe('2');
  });

  it('compares in full when the state of the last export is lost or its settings changed', async () => {
    const world = await setUp();
    const { state, mapping, deps } = world;
    await runExport(deps, mapping);

    await state.update('docs', { lastExport: null });
    const lost = await observed(world, () => runExport(deps, mapping));
    expect(lost.value).toMatchObject({ result: 'unchanged' });
    expect(lost.contentReads).toBeGreaterThan(0);

    const appended = { ...mapping, import: { ...mapping.import, unlisted: 'append' as const } };
    const changed = await observed(world, () => runExport(deps, appended));
    expect(changed.contentReads).toBeGreaterThan(0);
    const same = await observed(world, () => runExport(deps, appended));
    expect(same.contentReads).toBe(0);
    expect(same.refsMoved).toBe(false);
  });
});
