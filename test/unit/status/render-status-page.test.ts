import { describe, expect, it } from 'vitest';
import {
  PAGE_WARNINGS,
  renderStatusPage,
  renderUnavailablePage,
} from '../../../src/status/render-status-page.js';
import { statusAnswerSchema } from '../../../src/status/status-answer-schema.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const OPTIONS = { now: NOW, refreshSeconds: 5, dashboard: true };
const EVIL = '<script>alert(1)</script>';

function answer(overrides: Record<string, unknown> = {}) {
  return statusAnswerSchema.parse({
    version: '0.1.0',
    startedAt: '2026-11-21T11:00:00.000Z',
    uptimeSeconds: 3600,
    mappings: [
      {
        name: 'docs',
        direction: 'git-to-space',
        state: 'ok',
        lastImport: {
          at: '2026-11-21T11:59:00.000Z',
          result: 'imported',
          sha: 'abcdef0123456789',
          changeRequest: { id: 'cr_1', number: 7, url: 'javascript:alert(1)' },
        },
        lastError: { at: '2026-11-21T11:58:00.000Z', code: 'GIT_NOT_FOUND', message: EVIL },
        changeRequests: [
          {
            changeRequest: 'cr_1',
            number: 7,
            subject: EVIL,
            mergeable: false,
            reasons: [EVIL],
          },
        ],
        linkChecks: [],
      },
    ],
    openapi: [
      {
        org: 'org_1',
        slug: EVIL,
        lastRefresh: { at: '2026-11-21T11:00:00.000Z', result: 'uploaded' },
        lastNewVersion: { at: '2026-11-21T11:00:00.000Z', result: 'uploaded', changelog: [EVIL] },
      },
    ],
    queues: { import: { waiting: 1, failed: 2 } },
    nextRuns: [],
    failures: [
      {
        queue: 'import',
        name: 'poll-git',
        id: '1',
        failedReason: EVIL,
        attemptsMade: 1,
        at: NOW.toISOString(),
      },
    ],
    events: [
      { at: NOW.toISOString(), queue: 'import', job: 'import-content', result: 'imported', summary: EVIL },
    ],
    ...overrides,
  });
}

describe('renderStatusPage', () => {
  it('shows text from the service, git and Redis as text, and links to http(s) only', () => {
    const page = renderStatusPage(answer(), OPTIONS);
    expect(page).not.toContain('<script>');
    // Seven texts, the failure's reason twice: grouped for people, and among the folded queue internals.
    expect(page.split('&lt;script&gt;alert(1)&lt;/script&gt;').length - 1).toBe(8);
    expect(page).not.toContain('javascript:');
    expect(page).toContain('into #7 ');
    expect(page).toContain('<meta http-equiv="refresh" content="5">');
    expect(page).toContain('<a href="/ui">queues dashboard</a>');
  });

  it("says beside the direction when a mapping's repository sends push webhooks, and how often git is looked at", () => {
    const hooked = answer({
      mappings: [
        {
          name: 'docs',
          direction: 'git-to-space',
          state: 'ok',
          pushHook: { at: '2026-11-21T11:55:00.000Z', looksEvery: 3_600_000 },
        },
      ],
    });
    const page = renderStatusPage(hooked, OPTIONS);
    expect(page).toMatch(
      /git-to-space<br><span class="dim">push webhooks, last .*5m ago.*: git looked at every 1h<\/span>/,
    );
    expect(renderStatusPage(answer(), OPTIONS)).not.toContain('push webhooks');
  });

  it('links the change request when the service gives an http(s) address', () => {
    const page = pageOfImports(
      { docs: { changeRequest: { id: 'cr_1', number: 7, url: 'https://docs.example/cr/7?a=1&b=2' } } },
      { ...OPTIONS, dashboard: false },
    );
    expect(page).toContain('into <a href="https://docs.example/cr/7?a=1&amp;b=2">#7</a>');
    expect(page).not.toContain('href="/ui"');
  });

  it("lists each mapping's import warnings, escaped, and links to them from the mapping", () => {
    const warnings = [
      { code: 'SUMMARY_MISSING_FILE', file: `${EVIL}.md`, line: 3, message: `${EVIL} is not in the folder.` },
      { code: 'PAGE_UNLISTED', file: 'drafts/notes.md', message: 'No SUMMARY.md entry lists this page.' },
    ];
    const page = pageOfImports({ docs: { warnings }, clean: {} });
    expect(page).not.toContain('<script>');
    expect(page).toContain('<br><a class="warn" href="#import-warnings">2 warnings</a>');
    expect(page).toContain('<h2 id="import-warnings-title">Import warnings</h2>');
    expect(page).toContain(
      '<tr><td>docs</td><td><code>&lt;script&gt;alert(1)&lt;/script&gt;.md:3</code></td><td>&lt;script&gt;alert(1)&lt;/script&gt; is not in the folder. <span class="dim">SUMMARY_MISSING_FILE</span></td></tr>',
    );
    expect(page).toContain(
      '<tr><td>docs</td><td><code>drafts/notes.md</code></td><td>No SUMMARY.md entry lists this page. <span class="dim">PAGE_UNLISTED</span></td></tr>',
    );
    expect(page).not.toMatch(/<td>clean<\/td><td><code>/);
    expect(page.match(/href="#import-warnings"/g)).toHaveLength(1);
  });

  it('shows the first warnings of a mapping and how many more there are', () => {
    const warning = (line: number) => ({ code: 'SUMMARY_DUPLICATE', file: 'SUMMARY.md', line, message: 'x' });
    const page = pageOfImports({
      docs: { warnings: Array.from({ length: 50 }, (_, i) => warning(i + 1)), warningCount: 75 },
    });
    expect(page).toContain('href="#import-warnings">75 warnings</a>');
    expect(page.match(/<code>SUMMARY\.md:\d+<\/code>/g)).toHaveLength(PAGE_WARNINGS);
    expect(page).toContain(
      `<span class="dim">and ${75 - PAGE_WARNINGS} more (/status lists the first 50)</span>`,
    );
  });

  it("names a spec by its document's title, then its organization and slug", () => {
    const spec = { org: 'org_1', slug: 'pets', title: 'Pets <API>', state: 'ok' as const };
    const page = renderStatusPage(answer({ openapi: [spec] }), OPTIONS);
    expect(page).toContain('<strong>Pets &lt;API&gt;</strong> org_1/pets');
  });

  it('says when the last imports read past nothing', () => {
    const page = renderStatusPage(answer(), OPTIONS);
    expect(page).toMatch(/Import warnings<\/h2>\s*<p>None in the last imports\.<\/p>/);
    expect(page).not.toContain('href="#import-warnings"');
  });

  it('shows a part that could not be read as unavailable, and the others as usual', () => {
    const page = renderStatusPage(answer({ openapi: { error: 'no answer within 5000 ms' } }), OPTIONS);
    expect(page).toMatch(/OpenAPI specs<\/h2>\s*<p class="bad">Unavailable: no answer within 5000 ms<\/p>/);
    expect(page).toContain('<h2 id="mappings-title">Mappings</h2>');
  });
});

/** The page of mappings that differ only by their last import, each given by its name. */
function pageOfImports(imports: Record<string, Record<string, unknown>>, options = OPTIONS): string {
  const mappings = Object.entries(imports).map(([name, lastImport]) => ({
    name,
    direction: 'git-to-space',
    state: 'ok',
    lastImport: { at: NOW.toISOString(), result: 'imported', ...lastImport },
  }));
  return renderStatusPage(answer({ mappings }), options);
}

describe('renderUnavailablePage', () => {
  it('says why and keeps reloading', () => {
    const page = renderUnavailablePage('Redis does not answer: the status is unavailable', OPTIONS);
    expect(page).toContain(
      '<p class="problem" role="alert">Redis does not answer: the status is unavailable</p>',
    );
    expect(page).toContain('<meta http-equiv="refresh" content="5">');
  });
});
