// `docsync once --dry-run` and the daemon's dry run against the local service: the pages the import
// would add, change (with the lines of the change) and remove, compared with the live content when
// no change request is open, and with docsync's open change request when there is one. Nothing is
// written to the service: its request counter sees reads only, and its state stays as it was.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import type { StoredPage } from '../../../src/emulator/emulator-state.js';
import type { ContentPreview } from '../../../src/preview/content-preview.js';
import { createTestRepo } from '../../support/git-repos.js';
import { onceConfig } from '../../support/once-config.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import {
  addRevision,
  createTestSpace,
  startTestEmulator,
  testPage,
} from '../../support/start-test-emulator.js';
import { uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const README = '# Handbook\n\nHow we work.\n';
const SETUP_BEFORE = '# Setup\n\nRun `make`.\nThen test.\n';
// One line changed, one added: +2 -1.
const SETUP_AFTER = '# Setup\n\nRun `make install`.\nThen test.\nThen deploy.\n';
const OLD = '# Old\n\none\ntwo\n';
const NEW = '# New\n\nFresh.\n';

/** What both dry runs below must find, whatever they compare with. */
const EXPECTED_PAGES = [
  { path: 'new', change: 'added', linesAdded: 3, linesRemoved: 0 },
  { path: 'old', change: 'removed', linesAdded: 0, linesRemoved: 4 },
  { path: 'setup', change: 'changed', linesAdded: 2, linesRemoved: 1 },
];

describe('a dry run previews the import', async () => {
  const emulator = await startTestEmulator();

  async function setUp(title: string) {
    const space = await createTestSpace(emulator, title);
    const repo = await createTestRepo();
    const { once } = await onceConfig({ emulator, space, repo, mapping: 'handbook', dir: 'handbook' });
    return { space, repo, once };
  }

  /** The service's state that any write would change, and the requests that were not reads. */
  function serviceWrites(space: string) {
    const { state, counter } = emulator.emulator;
    const writes = () =>
      Object.entries(counter.snapshot().counts).filter(([route]) => !route.startsWith('GET '));
    const look = () => ({
      revision: state.spaces[space]?.revision,
      changeRequests: Object.values(state.changeRequests)
        .filter((cr) => cr.spaceId === space)
        .map((cr) => ({ id: cr.id, revision: cr.revision, subject: cr.subject })),
    });
    const before = { writes: writes(), state: look() };
    return { before, after: () => ({ writes: writes(), state: look() }) };
  }

  it('against the live content: a new page, a changed one with its lines, a removed one, and nothing written', async () => {
    const { space, repo, once } = await setUp('Live');
    const page = (slug: string, markdown: string): StoredPage => ({
      ...testPage(`pg_${slug}_${space}`, slug),
      markdown,
    });
    addRevision(emulator.emulator, { spaceId: space }, [
      { ...page('readme', README), sourcePath: 'README.md' },
      page('setup', SETUP_BEFORE),
      page('old', OLD),
    ]);
    await repo.commit(
      { 'handbook/README.md': README, 'handbook/setup.md': SETUP_AFTER, 'handbook/new.md': NEW },
      'Rework the handbook',
    );
    const watch = serviceWrites(space);

    const json = await once('--dry-run', '--format', 'json');
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { result: string; preview: ContentPreview };
    expect(report.result).toBe('dry-run');
    expect(report.preview).toEqual({
      against: { kind: 'live', revision: emulator.emulator.state.spaces[space]?.revision },
      added: 1,
      changed: 1,
      removed: 1,
      unchanged: 1,
      linesAdded: 5,
      linesRemoved: 5,
      pages: EXPECTED_PAGES,
      notListed: 0,
      approximate: false,
    });
    expect(watch.after()).toEqual(watch.before);

    const text = await once('--dry-run');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /^handbook: dry-run [0-9a-f]{12}\ncompared with the live content, for a new change request, revision rev_\w+\npages: 1 added, 1 changed, 1 removed, 1 unchanged; lines \+5 -5\n {2}\+ new \+3 -0\n {2}- old \+0 -4\n {2}~ setup \+2 -1\n$/,
    );
    expect(watch.after()).toEqual(watch.before);
  });

  it("against docsync's open change request, not the live content, and nothing written", async () => {
    const { space, repo, once } = await setUp('Open change request');
    await repo.commit(
      { 'handbook/README.md': README, 'handbook/setup.md': SETUP_BEFORE, 'handbook/old.md': OLD },
      'First handbook',
    );
    const imported = await once('--format', 'json');
    expect(imported.code).toBe(0);
    const { changeRequest } = JSON.parse(imported.stdout) as {
      changeRequest: { id: string; number: number };
    };

    await rm(join(repo.work, 'handbook/old.md'));
    await repo.commit({ 'handbook/setup.md': SETUP_AFTER, 'handbook/new.md': NEW }, 'Rework the handbook');
    const watch = serviceWrites(space);
    const markdown = await once('--dry-run', '--format', 'markdown');
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain(`Compared with [change request #${changeRequest.number}](`);
    expect(markdown.stdout).toContain('| `setup` | changed | +2 -1 |');

    const json = await once('--dry-run', '--json');
    const { preview } = JSON.parse(json.stdout) as { preview: ContentPreview };
    expect(preview).toMatchObject({
      against: {
        kind: 'change-request',
        id: changeRequest.id,
        number: changeRequest.number,
        revision: emulator.emulator.state.changeRequests[changeRequest.id]?.revision,
      },
      added: 1,
      changed: 1,
      removed: 1,
      unchanged: 1,
      pages: EXPECTED_PAGES,
    });
    expect(watch.after()).toEqual(watch.before);
  });

  it('lists the first 200 pages by path, and counts them all', async () => {
    const { repo, once } = await setUp('Many pages');
    const pages = Array.from({ length: 230 }, (_, n) => [
      `handbook/p${String(n).padStart(3, '0')}.md`,
      `# Page ${n}\n\ntext\n`,
    ]);
    await repo.commit({ 'handbook/README.md': README, ...Object.fromEntries(pages) }, 'Many pages');
    const json = await once('--dry-run', '--json');
    const { preview } = JSON.parse(json.stdout) as { preview: ContentPreview };
    expect(preview).toMatchObject({ added: 231, linesAdded: 230 * 3 + 3, notListed: 31 });
    expect(preview.pages).toHaveLength(200);
    expect(preview.pages.at(-1)).toEqual({ path: 'p199', change: 'added', linesAdded: 3, linesRemoved: 0 });
  });

  it("logs the daemon's dry-run import with the counts and the first paths", async () => {
    const space = await createTestSpace(emulator, 'Daemon');
    const repo = await createTestRepo();
    await repo.commit({ 'docs/README.md': README, 'docs/new.md': NEW }, 'Planned only');
    await repo.push();
    const watch = serviceWrites(space);
    const daemon = await startTestDaemon({
      prefix: uniquePrefix('dry-run-preview'),
      jobs: JOBS,
      service: emulator,
      yaml: `dryRun: true
mappings:
  - { name: docs, space: ${space}, git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1h } }
`,
    });
    const line = await waitFor(
      () => daemon.lines.find((logged) => logged.msg === 'dry run: would import into the change request'),
      'the planned import',
    );
    expect(line).toMatchObject({
      mapping: 'docs',
      against: 'live',
      added: 2,
      changed: 0,
      removed: 0,
      unchanged: 0,
      linesAdded: 6,
      linesRemoved: 0,
      firstPaths: ['+new', '+readme'],
    });
    expect(watch.after()).toEqual(watch.before);
  });
});
