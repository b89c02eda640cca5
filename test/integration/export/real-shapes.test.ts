// Space to git on a repository in the shape docs teams really keep (test/support/real-shaped-docs.ts:
// `.gitbook.yaml` naming INTRODUCTION.md beside the git host's README.md, a SUMMARY.md with groups,
// `-` bullets, four-space indents, leading-slash links, link and placeholder entries, a folder link,
// a duplicate and a missing entry, unlisted pages, dotfiles, a nested `.gitbook.yaml`, an executable
// script, images differing only in case, a video left out for size), through the daemon and the
// local service over HTTP: the import and its export change nothing; each edit in the service
// changes exactly what it edited.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { mappingSchema } from '../../../src/config/mapping-schema.js';
import { bundleGitFolder } from '../../../src/content/bundle-git-folder.js';
import type { StoredPage } from '../../../src/emulator/emulator-state.js';
import { runExport } from '../../../src/export/run-export.js';
import { GitMirror } from '../../../src/git/git-mirror.js';
import { MemoryMappingStateStore } from '../../../src/state/memory-mapping-state-store.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { startFileServer } from '../../support/file-server.js';
import { createTestRepo, type TestRepo } from '../../support/git-repos.js';
import { writeRealShapedDocs } from '../../support/real-shaped-docs.js';
import { editInService, findPage } from '../../support/service-content.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { createTestSpace, startTestEmulator, type TestEmulator } from '../../support/start-test-emulator.js';
import { exportOf, stateWhere } from '../../support/state-where.js';
import { testApiClient } from '../../support/test-api-client.js';
import { tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';

const MIB = 1024 * 1024;

async function remote(repo: TestRepo, ...args: string[]): Promise<string> {
  return repo.git('--git-dir', repo.remote, ...args);
}

/** `git ls-tree -r` of the docs folder at `rev`: mode, blob and path of every file. */
async function listing(repo: TestRepo, rev: string): Promise<string[]> {
  return (await remote(repo, 'ls-tree', '-r', rev, '--', 'docs')).split('\n');
}

/** An edit made by a writer in the service: a new revision of the space, its files kept. */
const editSpace = (test: TestEmulator, space: string, edit: (pages: StoredPage[]) => void) =>
  editInService(test.emulator, { spaceId: space }, edit).id;

describe('space to git on a repository in the shape people write', () => {
  it('exports an import back without a commit, then commits exactly what each edit in the service changed', async () => {
    const test = await startTestEmulator();
    const space = await createTestSpace(test, 'Docs');
    const repo = await createTestRepo();
    const docs = join(repo.work, 'docs');
    const shaped = await writeRealShapedDocs(docs, {
      pages: 16,
      imageBytes: 24_000,
      images: 3,
      videoBytes: 3 * MIB,
    });
    // An executable the service holds too: its mode must survive the export.
    await writeFile(join(docs, '.gitbook/assets/install.sh'), '#!/bin/sh\necho install\n');
    await chmod(join(docs, '.gitbook/assets/install.sh'), 0o755);
    // Names from an old system, in Latin-1 (`café`): no page can be named so, so they stay in git,
    // left out of the import with a warning, and no export touches them.
    const latin1 = (...parts: (string | number)[]) =>
      Buffer.concat(
        parts.map((part) => (typeof part === 'number' ? Buffer.from([part]) : Buffer.from(part))),
      );
    await writeFile(latin1(docs, '/notes-caf', 0xe9, '.md'), '# Notes\n');
    await mkdir(latin1(docs, '/r', 0xe9, 'sum', 0xe9));
    await writeFile(latin1(docs, '/r', 0xe9, 'sum', 0xe9, '/page.md'), '# Page\n');
    const first = await repo.commit({ 'src/app.js': 'x\n' }, 'Docs as they are');
    await repo.push();
    const before = await listing(repo, first);
    // git shows such a name quoted, each byte that is not ASCII in octal.
    const notUtf8 = before.filter((line) => line.includes('\\351'));
    expect(notUtf8).toHaveLength(2);
    const summaryBefore = await remote(repo, 'show', `${first}:docs/SUMMARY.md`);

    const prefix = uniquePrefix('real-shapes');
    const redis = testRedis(prefix);
    const mappingYaml = {
      name: 'docs',
      space,
      direction: 'both' as const,
      git: { repo: repo.remote, branch: 'main', dir: 'docs', poll: '1s' },
      export: { poll: '1s', author: { name: 'Docs Bot', email: 'docs-bot@example.com' } },
      import: { skipFilesOver: '2MiB' },
    };
    await startTestDaemon({
      prefix,
      jobs: JOBS,
      service: test,
      yaml: `mappings:
  - name: docs
    space: ${space}
    direction: both
    git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s }
    export: { poll: 1s, author: { name: Docs Bot, email: docs-bot@example.com } }
    import: { skipFilesOver: 2MiB }
    changeRequest: { poll: 1s }
    merge: { enabled: true, approvals: 0 }
`,
    });
    const state = new RedisMappingStateStore(redis, prefix);
    const imported = await stateWhere(state, 'docs', (s) => s.exportBase === first, 'the import, merged');
    expect(imported.lastImport?.warnings).toEqual(
      expect.arrayContaining(
        ['notes-caf\\xe9.md', 'r\\xe9sum\\xe9'].map((file) =>
          expect.objectContaining({
            code: 'FILE_LEFT_OUT',
            file,
            message: `${file} has a name that is not UTF-8 (shown with its bytes as \\xNN): it stays in git and is not imported; rename it to a UTF-8 name (git mv) to import it`,
          }),
        ),
      ),
    );

    // The export of what was imported, run as the export job runs it: nothing to commit.
    const mirrorDir = await tempDir('export-mirror');
    const mapping = mappingSchema.parse(mappingYaml);
    const outcome = await runExport(
      {
        api: testApiClient(test).client,
        mirror: new GitMirror({
          repo: repo.remote,
          dir: join(mirrorDir, 'mirror.git'),
          log: pino({ level: 'silent' }),
        }),
        state: new MemoryMappingStateStore(),
        log: pino({ level: 'silent' }),
        now: () => new Date(),
        signal: AbortSignal.timeout(20_000),
        dryRun: false,
      },
      mapping,
    );
    expect(outcome.result).toBe('unchanged');
    expect(await remote(repo, 'rev-parse', 'main')).toBe(first);

    // One page edited in the service: one file changes, every mode and every other byte stays.
    const edited = editSpace(test, space, (pages) => {
      const page = findPage(pages, shaped.editablePage);
      page.markdown = `${page.markdown}\nA line written in the service.\n`;
    });
    const afterEdit = await exportOf(state, 'docs', edited, 'the export of the edit');
    expect(afterEdit.lastExport?.result).toBe('committed');
    const one = await remote(repo, 'rev-parse', 'main');
    expect(await remote(repo, 'diff', '--name-only', first, one)).toBe(`docs/${shaped.editablePage}`);
    const changed = (await listing(repo, one)).filter((line) => !before.includes(line));
    expect(changed).toEqual([
      expect.stringMatching(new RegExp(`^100644 blob [0-9a-f]{40}\\tdocs/${shaped.editablePage}$`)),
    ]);
    expect(before).toContainEqual(
      expect.stringMatching(/^100755 blob [0-9a-f]{40}\tdocs\/\.gitbook\/assets\/install\.sh$/),
    );

    // A title, a new page and a removed page: the summary changes on those lines only.
    let removedPath = '';
    const restructured = editSpace(test, space, (pages) => {
      findPage(pages, shaped.editablePage).title = 'Quick start, faster';
      // The first page, which git keeps as INTRODUCTION.md (`.gitbook.yaml`), never as README.md.
      const first = pages[0];
      if (first === undefined) throw new Error('the space has no first page');
      first.markdown = `${first.markdown}\nWelcome aboard.\n`;
      const group = findPage(pages, (page) => page.type === 'group' && page.title === 'Guides');
      const [, removed] = group.pages[0]?.pages ?? [];
      group.pages[0]?.pages.splice(1, 1);
      group.pages[0]?.pages.push({
        id: 'pg_new',
        title: 'Upgrading',
        slug: 'upgrading',
        sourcePath: 'guides/upgrading.md',
        markdown: '# Upgrading\n\nRun the new version.\n',
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
        pages: [],
      });
      if (removed?.sourcePath === undefined) throw new Error('the group has no second page');
      removedPath = removed.sourcePath;
    });
    const afterRestructure = await exportOf(state, 'docs', restructured, 'the export of the new structure');
    expect(afterRestructure.lastExport?.result).toBe('committed');
    const two = await remote(repo, 'rev-parse', 'main');
    expect((await remote(repo, 'diff', '--name-status', one, two)).split('\n').sort()).toEqual([
      'A\tdocs/guides/upgrading.md',
      `D\tdocs/${removedPath}`,
      'M\tdocs/INTRODUCTION.md',
      'M\tdocs/SUMMARY.md',
    ]);
    const summaryAfter = await remote(repo, 'show', `${two}:docs/SUMMARY.md`);
    const lines = summaryBefore.split('\n');
    const removedLine = lines.findIndex((line) => line.includes(`(/${removedPath})`));
    const expected = [...lines];
    expected[lines.findIndex((line) => line.includes(`(/${shaped.editablePage})`))] =
      `    - [Quick start, faster](/${shaped.editablePage})`;
    const lastGuide = lines.findLastIndex((line) => line.startsWith('    - [Guides:'));
    expected.splice(lastGuide + 1, 0, '    - [Upgrading](/guides/upgrading.md)');
    expected.splice(removedLine, 1);
    expect(summaryAfter).toBe(expected.join('\n'));
    // What the service does not hold is as it was, byte for byte and mode for mode.
    for (const path of [...shaped.notOwned, '.gitbook/assets/walkthrough.mp4']) {
      const was = before.find((line) => line.endsWith(`\tdocs/${path}`));
      expect(was, path).toBeDefined();
      expect(await listing(repo, two), path).toContain(was);
    }
    expect((await listing(repo, two)).filter((line) => line.includes('\\351'))).toEqual(notUtf8);
  });

  it('commits on the branch when git changed only what the service does not hold, and goes to a conflict branch when git changed a page the space changed', async () => {
    const test = await startTestEmulator();
    const files = await startFileServer();
    const { client } = testApiClient(test);
    const space = await createTestSpace(test, 'Docs');
    const repo = await createTestRepo();
    const shaped = await writeRealShapedDocs(join(repo.work, 'docs'), {
      pages: 12,
      imageBytes: 8_000,
      images: 2,
      videoBytes: 0,
    });
    const first = await repo.commit({}, 'Docs as they are');
    await repo.push();
    const log = pino({ level: 'silent' });
    const mirror = new GitMirror({
      repo: repo.remote,
      dir: join(await tempDir('export-mirror'), 'mirror.git'),
      log,
    });
    const mapping = mappingSchema.parse({
      name: 'docs',
      space,
      direction: 'both',
      git: { repo: repo.remote, branch: 'main', dir: 'docs' },
      export: { author: { name: 'Docs Bot', email: 'docs-bot@example.com' } },
    });
    // The space holds git's folder, imported as the import job bundles it.
    await mirror.fetch();
    const zip = join(await tempDir('bundle'), 'docs.zip');
    await bundleGitFolder(mirror, first, 'docs', zip);
    const url = files.put('/docs.zip', await readFile(zip), 'application/zip');
    await client.content.importContent({ spaceId: space }, { url, source: 'zip' });
    const state = new MemoryMappingStateStore();
    const deps = {
      api: client,
      service: { baseUrl: test.baseUrl, token: test.tokens.admin },
      mirror,
      state,
      log,
      now: () => new Date(),
      signal: AbortSignal.timeout(25_000),
      dryRun: false,
    };
    expect((await runExport(deps, mapping)).result).toBe('unchanged');
    expect((await state.get('docs')).exportBase).toBe(first);

    // Git changes files the service does not hold; a writer edits a page: no conflict.
    const tidied = await repo.commit(
      {
        'docs/.gitignore': 'node_modules/\n_book/\n.cache/\n',
        'docs/notes.md': '# Notes\n\nMore notes.\n',
        'docs/README.md': '# Our product docs\n\nNow with a badge.\n',
      },
      'Tidy the docs folder',
    );
    await repo.push();
    editSpace(test, space, (pages) => {
      const page = findPage(pages, shaped.editablePage);
      page.markdown = `${page.markdown}\nWritten in the service.\n`;
    });
    const committed = await runExport(deps, mapping);
    expect(committed.result).toBe('committed');
    expect(await remote(repo, 'rev-parse', 'main^')).toBe(tidied);
    expect(await remote(repo, 'diff', '--name-only', tidied, 'main')).toBe(`docs/${shaped.editablePage}`);

    // Git and a writer both change that page: the space's edit goes to a conflict branch.
    await repo.git('pull', '--quiet', '--ff-only', 'origin', 'main');
    const gitEdit = await repo.commit(
      { [`docs/${shaped.editablePage}`]: '# Changed in git\n' },
      'Edit in git',
    );
    await repo.push();
    const revision = editSpace(test, space, (pages) => {
      findPage(pages, shaped.editablePage).markdown = '# Changed in the service\n';
    });
    const conflict = await runExport(deps, mapping);
    expect(conflict).toMatchObject({
      result: 'conflict',
      branch: `docsync/conflict-${revision}`,
      changedInGit: [shaped.editablePage],
    });
    expect(await remote(repo, 'rev-parse', 'main')).toBe(gitEdit);
    expect(await remote(repo, 'rev-parse', `docsync/conflict-${revision}^`)).toBe(committed.sha);
  });
});
