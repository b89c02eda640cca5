// Two docsync processes on one Redis each have their own git mirror. A base one export made (git's
// version of a file kept) is shared on the remote under docsync's own ref, so the next export, run
// by the other process, still tells git's change from the service's and commits the service's edit
// to the branch instead of sending it to a conflict branch.
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { mappingSchema } from '../../../src/config/mapping-schema.js';
import { runExport } from '../../../src/export/run-export.js';
import { GitMirror } from '../../../src/git/git-mirror.js';
import { MemoryMappingStateStore } from '../../../src/state/memory-mapping-state-store.js';
import { createTestRepo } from '../../support/git-repos.js';
import { addRevision, editInService, findPage, testPage } from '../../support/service-content.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';
import { tempDir } from '../../support/test-context.js';

describe('an export base made by another docsync process', () => {
  it('is fetched from the remote, so the next edit lands on the branch and git keeps its file', async () => {
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
    const state = new MemoryMappingStateStore();
    await state.update('docs', { exportBase: first });
    const mapping = mappingSchema.parse({
      name: 'docs',
      space,
      direction: 'both',
      git: { repo: repo.remote, branch: 'main', dir: 'docs' },
    });
    const log = pino({ level: 'silent' });
    const processDeps = async (name: string) => ({
      api: testApiClient(test).client,
      mirror: new GitMirror({ repo: repo.remote, dir: join(await tempDir(name), 'mirror.git'), log }),
      state,
      log,
      now: () => new Date(),
      signal: AbortSignal.timeout(30_000),
      dryRun: false,
    });
    const one = await processDeps('process-one');
    const two = await processDeps('process-two');
    const edit = (change: (pages: Parameters<typeof findPage>[0]) => void) =>
      editInService(test.emulator, { spaceId: space }, change);

    // A writer changes install.md in git; the service changes usage.md. Process one exports: git's
    // install.md stays, and the base it makes (the service's install.md) lives in its mirror.
    await repo.commit({ 'docs/install.md': '# Install\n\nFrom git.\n' }, 'Edit in git');
    await repo.push();
    edit((pages) => {
      findPage(pages, 'usage.md').markdown = '# Usage\n\nFrom the service.\n';
    });
    expect(await runExport(one, mapping)).toMatchObject({ result: 'committed', keptFromGit: ['install.md'] });
    const base = (await state.get('docs')).exportBase ?? '';
    expect(await repo.git('--git-dir', repo.remote, 'rev-parse', 'refs/docsync/export-base/docs')).toBe(base);

    // Process two exports the next edit, of another file: its mirror never saw that base.
    edit((pages) => {
      findPage(pages, 'README.md').markdown = '# Welcome\n\nAgain from the service.\n';
    });
    expect(await runExport(two, mapping)).toMatchObject({
      result: 'committed',
      branch: 'main',
      keptFromGit: ['install.md'],
    });
    const remote = (...args: string[]) => repo.git('--git-dir', repo.remote, ...args);
    expect(await remote('show', 'main:docs/install.md')).toBe('# Install\n\nFrom git.');
    expect(await remote('show', 'main:docs/README.md')).toBe('# Welcome\n\nAgain from the service.');
    expect(await remote('branch', '--list', 'docsync/*')).toBe('');
  });
});
