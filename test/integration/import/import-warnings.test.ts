import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { MAX_STORED_WARNINGS } from '../../../src/state/mapping-state.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { createTestRepo } from '../../support/git-repos.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const UNLISTED = 60;

/** A folder as people keep it beside the service: it imports, with what docsync read past. */
function quirkyDocs(): Record<string, string> {
  return {
    'docs/.gitbook.yaml': 'structure:\n  readme: INTRODUCTION.md\n',
    'docs/README.md': '# For the git host\n',
    'docs/INTRODUCTION.md': '# Introduction\n',
    'docs/SUMMARY.md': [
      '# Summary',
      '',
      '* [Introduction](INTRODUCTION.md)',
      '* [Install](install.md)',
      '* [Install again](install.md)',
      '* [Removed](removed.md)',
      '',
    ].join('\n'),
    'docs/install.md': '# Install\n',
    ...Object.fromEntries(
      Array.from({ length: UNLISTED }, (_, index) => [
        `docs/drafts/${String(index).padStart(2, '0')}.md`,
        `# Draft ${index}\n`,
      ]),
    ),
  };
}

describe('an import with warnings', () => {
  it('imports, logs each warning once up to a cap, and keeps them in the state and the job result', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await createTestRepo();
    const sha = await repo.commit(quirkyDocs(), 'Docs with quirks');
    await repo.push();
    const prefix = uniquePrefix('import-warnings');
    const redis = testRedis(prefix);
    const yaml = `mappings:
  - { name: docs, space: ${space}, git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s } }
`;
    const daemon = await startTestDaemon({ prefix, jobs: JOBS, service: emulator, yaml });
    const state = new RedisMappingStateStore(redis, prefix);
    const imported = await waitFor(async () => {
      const now = await state.get('docs');
      return now.lastImportedSha === sha ? now : undefined;
    }, 'the import');

    const total = 3 + UNLISTED;
    expect(imported.lastImport).toMatchObject({ result: 'imported', warningCount: total });
    const stored = imported.lastImport?.warnings ?? [];
    expect(stored).toHaveLength(MAX_STORED_WARNINGS);
    expect(stored.slice(0, 4)).toEqual([
      expect.objectContaining({ code: 'SUMMARY_DUPLICATE', file: 'SUMMARY.md', line: 5 }),
      expect.objectContaining({ code: 'SUMMARY_MISSING_FILE', file: 'SUMMARY.md', line: 6 }),
      expect.objectContaining({ code: 'FILE_LEFT_OUT', file: 'README.md' }),
      expect.objectContaining({ code: 'PAGE_UNLISTED', file: 'drafts/00.md' }),
    ]);

    // The state is saved before the job ends: its result comes a moment later.
    const job = await waitFor(async () => {
      const found = await daemon.queues.get('import').getJob(`import/docs/${sha}`);
      // A job read before it completed holds no return value: read it again once it has.
      if ((await found?.isCompleted()) !== true) return undefined;
      return daemon.queues.get('import').getJob(`import/docs/${sha}`);
    }, 'the import job to complete');
    expect(job?.returnvalue).toMatchObject({ result: 'imported', warningCount: total });
    expect(job?.returnvalue.warnings).toEqual(stored);

    const logged = daemon.lines.filter((line) => line.msg === 'docs folder warning');
    expect(logged).toHaveLength(20);
    expect(logged[0]).toMatchObject({
      level: 'warn',
      code: 'SUMMARY_DUPLICATE',
      file: 'SUMMARY.md',
      line: 5,
    });
    expect(logged[2]).toMatchObject({ code: 'FILE_LEFT_OUT', file: 'README.md' });
    expect(logged[2]).not.toHaveProperty('line');
    expect(daemon.lines.filter((line) => line.msg === 'more docs folder warnings')).toEqual([
      expect.objectContaining({ notLogged: total - 20, count: total }),
    ]);

    // The service got the configured readme as the first page, and the listed pages only.
    const crId = imported.changeRequestId ?? '';
    const { pages } = (
      await callApi<{ pages: Array<{ title: string }> }>(
        `${emulator.baseUrl}/spaces/${space}/change-requests/${crId}/content/pages`,
        emulator.tokens.admin,
      )
    ).body;
    expect(pages.map((page) => page.title)).toEqual(['Introduction', 'Install']);

    // The same content again (a change and its revert): nothing sent, the warnings still shown.
    await repo.commit({ 'docs/install.md': '# Install, changed\n' }, 'Change');
    const reverted = await repo.commit({ 'docs/install.md': '# Install\n' }, 'Revert');
    await repo.push();
    const unchanged = await waitFor(async () => {
      const now = await state.get('docs');
      return now.lastImportedSha === reverted ? now : undefined;
    }, 'the unchanged import');
    expect(unchanged.lastImport).toMatchObject({ result: 'unchanged', warningCount: total });
    expect(unchanged.lastImport?.warnings).toEqual(stored);
    expect(daemon.lines.filter((line) => line.msg === 'docs folder warning')).toHaveLength(20);
  });

  it("follows the mapping's import settings: unlisted pages appended, a folder past its limits refused", async () => {
    const emulator = await startTestEmulator();
    const appendSpace = await createTestSpace(emulator, 'Appended');
    const limitedSpace = await createTestSpace(emulator, 'Limited');
    const repo = await createTestRepo();
    const sha = await repo.commit(
      {
        'docs/README.md': '# Welcome\n',
        'docs/SUMMARY.md': '* [Welcome](README.md)\n* [Guides](guides/README.md)\n',
        'docs/guides/README.md': '# Guides\n',
        'docs/guides/draft.md': '# Draft\n',
        'docs/notes.md': '# Notes\n',
        'handbook/README.md': '# Handbook\n\n![Diagram](assets/diagram.svg)\n',
        'handbook/assets/diagram.svg': `<svg>${'x'.repeat(4096)}</svg>`,
      },
      'Docs with unlisted pages',
    );
    await repo.push();
    const prefix = uniquePrefix('import-settings');
    const redis = testRedis(prefix);
    await startTestDaemon({
      prefix,
      jobs: JOBS,
      service: emulator,
      yaml: `mappings:
  - name: appended
    space: ${appendSpace}
    git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s }
    import: { unlisted: append }
  - name: limited
    space: ${limitedSpace}
    git: { repo: ${repo.remote}, branch: main, dir: handbook, poll: 1s }
    import: { limits: { maxFileBytes: 2KiB } }
`,
    });
    const state = new RedisMappingStateStore(redis, prefix);
    const appended = await waitFor(async () => {
      const now = await state.get('appended');
      return now.lastImportedSha === sha ? now : undefined;
    }, 'the import with unlisted pages appended');
    expect(appended.lastImport?.warnings).toBeUndefined();
    const { pages } = (
      await callApi<{ pages: Array<{ title: string; pages: Array<{ title: string }> }> }>(
        `${emulator.baseUrl}/spaces/${appendSpace}/change-requests/${appended.changeRequestId ?? ''}/content/pages`,
        emulator.tokens.admin,
      )
    ).body;
    expect(pages.map((page) => [page.title, page.pages.map((child) => child.title)])).toEqual([
      ['Welcome', []],
      ['Guides', ['Draft']],
      ['Notes', []],
    ]);

    const refused = await waitFor(async () => (await state.get('limited')).lastError, 'the refusal');
    expect(refused).toMatchObject({ code: 'ARCHIVE_TOO_LARGE' });
    expect(refused.message).toMatch(
      /^a file is over the limit of 2 KiB per file: assets\/diagram\.svg \(4 KiB\)\. Set import\.skipFilesOver of the mapping \(import: \{ skipFilesOver: 2KiB \}\), .*: assets\/diagram\.svg \(4 KiB\); 1 link on 1 page points to it and would break\. /,
    );
    expect((await state.get('limited')).changeRequestId).toBeUndefined();
  });
});
