// A page added in the service lands beside its siblings in git, through the local service over HTTP
// and a real export: into the folder a group's pages share (`contents/9/`, not a new `version-9/`)
// and beside the pages of its parent (`mining/setup/`, not the parent's site path).
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { mappingSchema } from '../../../src/config/mapping-schema.js';
import type { StoredPage } from '../../../src/emulator/emulator-state.js';
import { runExport } from '../../../src/export/run-export.js';
import { GitMirror } from '../../../src/git/git-mirror.js';
import { MemoryMappingStateStore } from '../../../src/state/memory-mapping-state-store.js';
import { createTestRepo } from '../../support/git-repos.js';
import { addRevision, editInService, findPage, testPage } from '../../support/service-content.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';
import { tempDir } from '../../support/test-context.js';

const FILES: Record<string, string> = {
  'README.md': '# Welcome\n',
  'contents/9/README.md': '# Version 9\n',
  'contents/9/install.md': '# Install 9\n',
  'mining/README.md': '# Mining\n',
  'mining/getting-started.md': '# Getting started\n',
  'mining/setup/install.md': '# Install a rig\n',
  'mining/setup/configure.md': '# Configure it\n',
};

const SUMMARY = `# Summary

* [Welcome](README.md)

## Version 9

* [Version 9](contents/9/README.md)
* [Install 9](contents/9/install.md)

## Mining

* [Mining](mining/README.md)
  * [Getting started](mining/getting-started.md)
    * [Install a rig](mining/setup/install.md)
    * [Configure it](mining/setup/configure.md)
`;

/** A page of the space with its file in git. */
const filed = (id: string, slug: string, path: string, pages: StoredPage[] = []): StoredPage => ({
  ...testPage(id, slug, pages),
  title: (FILES[path] ?? '').slice(2, -1),
  sourcePath: path,
  markdown: FILES[path] ?? '',
});

/** A page a writer adds in the service: no file in git. */
function added(id: string, slug: string, title: string): StoredPage {
  const { sourcePath: _, ...page } = testPage(id, slug);
  return { ...page, title, markdown: `# ${title}\n` };
}

describe('a page added in the service', () => {
  it('is committed beside its siblings’ files, not at a folder named after its place on the site', async () => {
    const test = await startTestEmulator();
    const space = await createTestSpace(test, 'Docs');
    const repo = await createTestRepo();
    await repo.commit(
      {
        ...Object.fromEntries(Object.entries(FILES).map(([path, text]) => [`docs/${path}`, text])),
        'docs/SUMMARY.md': SUMMARY,
      },
      'Write the docs',
    );
    await repo.push();
    const at = new Date().toISOString();
    const group = (id: string, slug: string, title: string, pages: StoredPage[]): StoredPage => ({
      id,
      type: 'group',
      title,
      slug,
      markdown: '',
      createdAt: at,
      updatedAt: at,
      pages,
    });
    addRevision(test.emulator, { spaceId: space }, [
      filed('pg_home', 'welcome', 'README.md'),
      group('pg_v9', 'version-9', 'Version 9', [
        filed('pg_v9_intro', 'version-9', 'contents/9/README.md'),
        filed('pg_v9_install', 'install-9', 'contents/9/install.md'),
      ]),
      group('pg_mining_group', 'mining', 'Mining', [
        filed('pg_mining', 'mining', 'mining/README.md', [
          filed('pg_start', 'getting-started', 'mining/getting-started.md', [
            filed('pg_rig', 'install-a-rig', 'mining/setup/install.md'),
            filed('pg_configure', 'configure-it', 'mining/setup/configure.md'),
          ]),
        ]),
      ]),
    ]);
    const state = new MemoryMappingStateStore();
    const mapping = mappingSchema.parse({
      name: 'docs',
      space,
      direction: 'space-to-git',
      git: { repo: repo.remote, branch: 'main', dir: 'docs' },
    });
    const log = pino({ level: 'silent' });
    const deps = {
      api: testApiClient(test).client,
      mirror: new GitMirror({ repo: repo.remote, dir: join(await tempDir('placement'), 'mirror.git'), log }),
      state,
      log,
      now: () => new Date(),
      signal: AbortSignal.timeout(30_000),
      dryRun: false,
    };
    const remote = (...args: string[]) => repo.git('--git-dir', repo.remote, ...args);
    await runExport(deps, mapping);
    const before = await remote('rev-parse', 'main');

    editInService(test.emulator, { spaceId: space }, (pages) => {
      findPage(pages, (page) => page.id === 'pg_v9').pages.push(added('pg_migrate', 'migrate', 'Migrate'));
      findPage(pages, 'mining/getting-started.md').pages.push(
        added('pg_trouble', 'troubleshooting', 'Troubleshooting'),
      );
    });
    expect(await runExport(deps, mapping)).toMatchObject({ result: 'committed' });

    const changed = (await remote('diff', '--name-status', before, 'main')).split('\n');
    expect(changed).toEqual([
      'M\tdocs/SUMMARY.md',
      'A\tdocs/contents/9/migrate.md',
      'A\tdocs/mining/setup/troubleshooting.md',
    ]);
    expect(await remote('show', 'main:docs/contents/9/migrate.md')).toBe('# Migrate');
  });
});
