// Two docsync processes on one Redis each have their own git mirror. A base one export made (git's
// version of a file kept) is shared on the remote under docsync's own ref, so the next export, run
// by the other process, still tells git's change from the service's and commits the service's edit
// to the branch instead of sending it to a conflict branch.
import { describe, expect, it } from 'vitest';
import { runExport } from '../../../src/export/run-export.js';
import { MemoryMappingStateStore } from '../../../src/state/memory-mapping-state-store.js';
import { startExportWorld } from '../../support/export-world.js';
import { findPage } from '../../support/service-content.js';

describe('an export base made by another docsync process', () => {
  it('is fetched from the remote, so the next edit lands on the branch and git keeps its file', async () => {
    const state = new MemoryMappingStateStore();
    const { repo, mapping, processDeps, edit, remote } = await startExportWorld(state, 'both');
    const one = await processDeps('process-one');
    const two = await processDeps('process-two');

    // A writer changes install.md in git; the service changes usage.md. Process one exports: git's
    // install.md stays, and the base it makes (the service's install.md) lives in its mirror.
    await repo.commit({ 'docs/install.md': '# Install\n\nFrom git.\n' }, 'Edit in git');
    await repo.push();
    edit((pages) => {
      findPage(pages, 'usage.md').markdown = '# Usage\n\nFrom the service.\n';
    });
    expect(await runExport(one, mapping)).toMatchObject({ result: 'committed', keptFromGit: ['install.md'] });
    const base = (await state.get('docs')).exportBase ?? '';
    expect(await remote('rev-parse', 'refs/docsync/export-base/docs')).toBe(base);

    // Process two exports the next edit, of another file: its mirror never saw that base.
    edit((pages) => {
      findPage(pages, 'README.md').markdown = '# Welcome\n\nAgain from the service.\n';
    });
    expect(await runExport(two, mapping)).toMatchObject({
      result: 'committed',
      branch: 'main',
      keptFromGit: ['install.md'],
    });
    expect(await remote('show', 'main:docs/install.md')).toBe('# Install\n\nFrom git.');
    expect(await remote('show', 'main:docs/README.md')).toBe('# Welcome\n\nAgain from the service.');
    expect(await remote('branch', '--list', 'docsync/*')).toBe('');
  });
});
