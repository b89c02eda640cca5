// The export of a space whose revision is far larger than the most docsync reads of one answer: the
// revision is read page by page as it arrives, so the space is exported whole, every page in git.
// The cap still holds for one page. (A 50,000-page space failed with API_RESPONSE_TOO_LARGE.)
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { isApiError } from '../../../src/api/api-error.js';
import { createDocsApiClient } from '../../../src/api/create-docs-api-client.js';
import { mappingSchema } from '../../../src/config/mapping-schema.js';
import type { StoredPage } from '../../../src/emulator/emulator-state.js';
import { runExport } from '../../../src/export/run-export.js';
import { GitMirror } from '../../../src/git/git-mirror.js';
import { MemoryMappingStateStore } from '../../../src/state/memory-mapping-state-store.js';
import { closeAfter } from '../../support/close-after.js';
import { createTestRepo } from '../../support/git-repos.js';
import { addRevision, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { tempDir } from '../../support/test-context.js';

/** What docsync reads of one answer in this test: far less than the space's revision. */
const MAX_BODY_BYTES = 64 * 1024;
const SECTIONS = 30;
const PAGES_PER_SECTION = 49;

function sections(): StoredPage[] {
  const at = new Date().toISOString();
  const page = (id: string, sourcePath: string, markdown: string, pages: StoredPage[] = []): StoredPage => ({
    id,
    title: id,
    slug: id,
    sourcePath,
    markdown,
    createdAt: at,
    updatedAt: at,
    pages,
  });
  return Array.from({ length: SECTIONS }, (_, s) =>
    page(
      `section-${s}`,
      s === 0 ? 'README.md' : `section-${s}/README.md`,
      `# Section ${s}\n`,
      Array.from({ length: PAGES_PER_SECTION }, (_, p) =>
        page(
          `page-${s}-${p}`,
          `section-${s}/page-${p}.md`,
          `# Page ${s}.${p}\n\n${'Written in the service, exported to git. '.repeat(8)}\n`,
        ),
      ),
    ),
  );
}

describe('export of a revision larger than one answer may be', async () => {
  const emulator = await startTestEmulator();

  async function setUp() {
    const space = await createTestSpace(emulator, 'Large space');
    const repo = await createTestRepo();
    await repo.commit({ 'docs/README.md': '# Docs\n', 'src/app.js': 'x\n' }, 'Start');
    await repo.push();
    const log = pino({ level: 'silent' });
    const api = createDocsApiClient(
      { baseUrl: emulator.baseUrl, token: emulator.tokens.admin, timeout: 60_000 },
      { maxBodyBytes: MAX_BODY_BYTES },
    );
    closeAfter(() => api.close());
    const deps = {
      api,
      mirror: new GitMirror({ repo: repo.remote, dir: join(await tempDir('mirror'), 'mirror.git'), log }),
      state: new MemoryMappingStateStore(),
      log,
      now: () => new Date(),
      signal: new AbortController().signal,
      dryRun: false,
    };
    const mapping = mappingSchema.parse({
      name: 'large',
      space,
      direction: 'space-to-git',
      git: { repo: repo.remote, branch: 'main', dir: 'docs' },
    });
    return { space, repo, deps, mapping };
  }

  it('exports every page of the space', { timeout: 120_000 }, async () => {
    const { space, repo, deps, mapping } = await setUp();
    const pages = sections();
    addRevision(emulator.emulator, { spaceId: space }, pages);
    const revision = await fetch(`${emulator.baseUrl}/spaces/${space}/content`, {
      headers: { authorization: `Bearer ${emulator.tokens.admin}` },
    });
    expect((await revision.arrayBuffer()).byteLength).toBeGreaterThan(10 * MAX_BODY_BYTES);

    const outcome = await runExport(deps, mapping);
    expect(outcome.result).toBe('committed');
    await repo.git('pull', '--quiet', 'origin', 'main');
    const files = (await repo.git('ls-files', 'docs')).split('\n');
    const expected = pages
      .flatMap((section) => [section, ...section.pages])
      .map((page) => `docs/${page.sourcePath}`);
    // Every page, and the summary that orders them.
    expect(files.filter((file) => file !== 'docs/SUMMARY.md').sort()).toEqual(expected.sort());
    expect(await repo.git('show', 'HEAD:docs/section-29/page-48.md')).toBe(
      `# Page 29.48\n\n${'Written in the service, exported to git. '.repeat(8)}`.trim(),
    );
  });

  it('still refuses one page larger than that', { timeout: 60_000 }, async () => {
    const { space, repo, deps, mapping } = await setUp();
    const pages = sections();
    const huge = pages[3]?.pages[7];
    if (huge === undefined) throw new Error('no page to grow');
    huge.markdown = `# Huge\n\n${'x'.repeat(2 * MAX_BODY_BYTES)}\n`;
    addRevision(emulator.emulator, { spaceId: space }, pages);
    const before = await repo.git('ls-remote', 'origin', 'main');
    const error = await runExport(deps, mapping).catch((e: unknown) => e);
    expect(isApiError(error, 'API_RESPONSE_TOO_LARGE')).toBe(true);
    expect((error as Error).message).toContain('pages[3].pages[7]');
    expect(await repo.git('ls-remote', 'origin', 'main')).toBe(before);
  });
});
