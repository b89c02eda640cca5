// One space and one repository holding the same three pages, the space's content last known to equal
// the first commit (the export base), for tests that run runExport directly: each "process" is a git
// mirror of its own on the shared remote, with the given state store.
import { join } from 'node:path';
import { pino } from 'pino';
import type { MappingConfig } from '../../src/config/mapping-schema.js';
import { mappingSchema } from '../../src/config/mapping-schema.js';
import type { ExportDeps } from '../../src/export/run-export.js';
import { GitMirror } from '../../src/git/git-mirror.js';
import type { MappingStateStore } from '../../src/state/mapping-state.js';
import { createTestRepo, type TestRepo } from './git-repos.js';
import { addRevision, editInService, type findPage, testPage } from './service-content.js';
import { createTestSpace, startTestEmulator, type TestEmulator } from './start-test-emulator.js';
import { testApiClient } from './test-api-client.js';
import { tempDir } from './test-context.js';

export interface ExportWorld {
  test: TestEmulator;
  space: string;
  repo: TestRepo;
  /** The commit of the three pages, the export base. */
  first: string;
  mapping: MappingConfig;
  /** The dependencies of runExport in a process with a git mirror of its own. */
  processDeps(name: string): Promise<ExportDeps>;
  /** Edits the space's pages; the new revision's id. */
  edit(change: (pages: Parameters<typeof findPage>[0]) => void): string;
  /** A git command on the remote. */
  remote(...args: string[]): Promise<string>;
}

export async function startExportWorld(
  state: MappingStateStore,
  direction: 'space-to-git' | 'both',
): Promise<ExportWorld> {
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
  await state.update('docs', { exportBase: first });
  const mapping = mappingSchema.parse({
    name: 'docs',
    space,
    direction,
    git: { repo: repo.remote, branch: 'main', dir: 'docs' },
  });
  const log = pino({ level: 'silent' });
  return {
    test,
    space,
    repo,
    first,
    mapping,
    processDeps: async (name) => ({
      api: testApiClient(test).client,
      mirror: new GitMirror({ repo: repo.remote, dir: join(await tempDir(name), 'mirror.git'), log }),
      state,
      log,
      now: () => new Date(),
      signal: AbortSignal.timeout(30_000),
      dryRun: false,
    }),
    edit: (change) => editInService(test.emulator, { spaceId: space }, change).id,
    remote: (...args) => repo.git('--git-dir', repo.remote, ...args),
  };
}
