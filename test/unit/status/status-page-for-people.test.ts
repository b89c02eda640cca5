// The status page as people read it: a headline saying what needs attention, broken links with
// their page and file:line, a failing mapping in red, events naming change requests by number,
// repeated failures and events counted once, queue internals folded away; and the stored link check
// it reads, older records included.
import { describe, expect, it } from 'vitest';
import { renderStatusTables } from '../../../src/cli/render-status-tables.js';
import { BROKEN_LINKS_LISTED, summaryOfLinkCheck } from '../../../src/state/link-check-store.js';
import { healthSummary } from '../../../src/status/health-summary.js';
import { renderStatusPage } from '../../../src/status/render-status-page.js';
import { type StatusAnswer, statusAnswerSchema } from '../../../src/status/status-answer-schema.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const OPTIONS = { now: NOW, refreshSeconds: 5, dashboard: false };
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();
const HOSTILE = '<img src=x onerror=alert(1)>';
const ESCAPED = '&lt;img src=x onerror=alert(1)&gt;';

const INSTALL_LINK = {
  pageId: 'pg_1',
  pageTitle: 'Install',
  pagePath: 'guides/install',
  target: 'nowhere.md',
  sourcePath: 'guides/install.md',
  file: 'docs/guides/install.md',
  line: 3,
  column: 5,
};

function failure(name: string, reason: string, seconds: number, id: string) {
  return { queue: 'import', name, id, failedReason: reason, attemptsMade: 5, at: ago(seconds) };
}

function answer(
  overrides: { state?: string; linkChecks?: unknown[]; failures?: unknown[]; events?: unknown[] } = {},
) {
  const state = overrides.state ?? 'ok';
  const failures =
    state === 'failing'
      ? [
          {
            job: 'poll-git',
            count: 4,
            since: ago(600),
            last: { at: ago(60), code: 'GIT_NOT_FOUND', message: 'gone' },
          },
        ]
      : [];
  const mappings = [
    {
      name: 'docs',
      direction: 'git-to-space',
      state,
      failures,
      lastImport: { at: ago(60), result: 'imported', changeRequest: { id: 'cr_9f8e7d', number: 2 } },
      changeRequests: [
        { changeRequest: 'cr_9f8e7d', number: 2, mergeable: false, reasons: ['1 broken link'] },
      ],
      linkChecks: overrides.linkChecks ?? [],
    },
  ];
  return statusAnswerSchema.parse({
    version: '0.1.0',
    startedAt: ago(3600),
    uptimeSeconds: 3600,
    summary: healthSummary(mappings as Parameters<typeof healthSummary>[0], []),
    mappings,
    openapi: [],
    queues: { import: { waiting: 0, failed: 3 } },
    nextRuns: [{ queue: 'import', key: 'poll-git/docs', name: 'poll-git', next: ago(-30), every: 30_000 }],
    failures: overrides.failures ?? [],
    events: overrides.events ?? [],
  });
}

const brokenCheck = (links: unknown[], broken = links.length) => ({
  target: 'cr_9f8e7d',
  number: 2,
  at: ago(30),
  revision: 'rev_2',
  broken,
  links,
});

/** The page's text between its tags, white space collapsed. */
const textOf = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/ \)/g, ')')
    .trim();

/** The markup of one section of the page, by its id. */
function sectionOf(page: string, id: string): string {
  const start = page.indexOf(`<section id="${id}"`);
  expect(start, `section ${id}`).toBeGreaterThanOrEqual(0);
  return page.slice(start, page.indexOf('</section>', start));
}

const page = (status: StatusAnswer) => renderStatusPage(status, OPTIONS);

describe('the headline', () => {
  it('says all in sync when nothing needs a person', () => {
    expect(textOf(sectionOf(page(answer()), 'health'))).toBe('All in sync (1 mapping, 0 specs)');
  });

  it('counts and names what needs attention: a failing mapping and a change request with broken links', () => {
    const status = answer({ state: 'failing', linkChecks: [brokenCheck([INSTALL_LINK])] });
    const health = sectionOf(page(status), 'health');
    expect(textOf(health)).toMatch(
      /^2 need attention: mapping docs, change request #2 \(docs\) mapping docs is failing \(poll-git failed 4 times in a row since 10m ago\): GIT_NOT_FOUND gone change request #2 \(docs\) has 1 broken link \(list\)/,
    );
    expect(health).toContain('<h2 id="health-title" class="bad">');
    expect(health).toContain('<a href="#broken-links">(list)</a>');
    expect(renderStatusTables(status, { now: NOW, color: false }).split('\n')[1]).toBe(
      '2 need attention: mapping docs, change request #2 (docs)',
    );
  });
});

describe('the broken links', () => {
  it('lists each with its page, its file and line in git, and what it points to, as text', () => {
    const hostile = {
      ...INSTALL_LINK,
      pageTitle: HOSTILE,
      file: `docs/${HOSTILE}.md`,
      line: 7,
      column: undefined,
    };
    const made = { pageId: 'pg_2', pageTitle: 'Notes', target: 'https://gone.example/', noGitFile: true };
    const lost = {
      pageId: 'pg_3',
      pageTitle: 'FAQ',
      target: 'faq-old.md',
      sourcePath: 'faq.md',
      file: 'docs/faq.md',
    };
    const links = sectionOf(
      page(answer({ linkChecks: [brokenCheck([INSTALL_LINK, hostile, made, lost])] })),
      'broken-links',
    );
    const rows = links.split('<tr>').slice(2).map(textOf);
    expect(rows).toEqual([
      'change request #2 (docs) Install guides/install docs/guides/install.md:3:5 nowhere.md',
      `change request #2 (docs) ${ESCAPED} guides/install docs/${ESCAPED}.md:7 nowhere.md`,
      'change request #2 (docs) Notes no file in git: the page was made in the service https://gone.example/',
      'change request #2 (docs) FAQ docs/faq.md, line not known faq-old.md',
    ]);
    expect(links).not.toContain('<img');
    expect(links).toContain('<code>docs/guides/install.md:3:5</code>');
  });

  it('says how many more there are past the ones listed', () => {
    const links = Array.from({ length: 30 }, (_, i) => ({ ...INSTALL_LINK, line: i + 1 }));
    const section = textOf(sectionOf(page(answer({ linkChecks: [brokenCheck(links, 75)] })), 'broken-links'));
    expect(section.match(/docs\/guides\/install\.md:\d+/g)).toHaveLength(20);
    expect(section).toMatch(/change request #2 \(docs\) - and 55 more$/);
  });

  it('says so when the last checks found none', () => {
    expect(textOf(sectionOf(page(answer()), 'broken-links'))).toBe(
      'Broken links None in the last link checks.',
    );
  });
});

describe('mappings, events and failures', () => {
  it('shows a failing mapping in red', () => {
    const row = sectionOf(page(answer({ state: 'failing' })), 'mappings').split('<tr>')[2] ?? '';
    expect(row).toContain('<strong class="bad">docs</strong>');
    expect(row).toContain('<span class="bad">failing</span>');
    expect(sectionOf(page(answer()), 'mappings')).toContain('<strong>docs</strong>');
  });

  it('names change requests by number, and counts an event repeated in a row once', () => {
    const event = (seconds: number, summary: string) => ({
      at: ago(seconds),
      queue: 'links',
      job: 'check-links',
      result: 'clean',
      summary,
      mapping: 'docs',
    });
    const events = [
      event(60, 'checked the links of change request cr_9f8e7d: 1 broken'),
      event(120, 'checked the links of change request cr_9f8e7d: 1 broken'),
      event(180, 'checked the links of change request cr_9f8e7d: 1 broken'),
      event(240, 'updated change request cr_unknown from the main content'),
      event(300, 'checked the links of change request cr_9f8e7d: 1 broken'),
    ];
    const rows = sectionOf(page(answer({ events })), 'events')
      .split('<tr>')
      .slice(2)
      .map(textOf);
    expect(rows).toEqual([
      '1m ago (first 3m ago) docs checked the links of change request #2: 1 broken ×3',
      '4m ago docs updated change request cr_unknown from the main content',
      '5m ago docs checked the links of change request #2: 1 broken',
    ]);
  });

  it('groups identical failures with a count, and folds job ids, queues and attempts away', () => {
    const failures = [
      failure('poll-git', 'GIT_NOT_FOUND: repository not found', 60, 'repeat:poll-git/docs:3'),
      failure('import-content', 'API_HTTP_ERROR: 500', 90, 'import/docs/abc'),
      failure('poll-git', 'GIT_NOT_FOUND: repository not found', 120, 'repeat:poll-git/docs:2'),
      failure('poll-git', 'GIT_NOT_FOUND: repository not found', 180, 'repeat:poll-git/docs:1'),
    ];
    const markup = page(answer({ failures }));
    const grouped = sectionOf(markup, 'failures');
    expect(grouped.split('<tr>').slice(2).map(textOf)).toEqual([
      '1m ago (first 3m ago) poll-git ×3 GIT_NOT_FOUND: repository not found',
      '1m ago import-content API_HTTP_ERROR: 500',
    ]);
    expect(textOf(grouped)).toMatch(/^Recent failures \(4\)/);
    expect(grouped).not.toContain('repeat:poll-git');

    const folded = markup.slice(
      markup.indexOf('<details id="queue-internals">'),
      markup.indexOf('</details>'),
    );
    expect(folded).toContain('<summary>Queue internals: job ids, queues, attempts, next runs</summary>');
    for (const id of ['failed-jobs', 'queues', 'next-runs']) expect(folded).toContain(`<section id="${id}"`);
    expect(textOf(sectionOf(folded, 'failed-jobs'))).toContain(
      '1m ago import poll-git repeat:poll-git/docs:3 5',
    );
    expect(markup.indexOf('<section id="queues"')).toBeGreaterThan(markup.indexOf('<details'));
  });
});

describe('change request links', () => {
  it("link a verdict and a merge of the last import's change request to the address the service gave", () => {
    const status = answer();
    const [docs] = status.mappings as Extract<StatusAnswer['mappings'], unknown[]>;
    if (docs?.lastImport?.changeRequest === undefined) throw new Error('the answer has no import');
    docs.lastImport.changeRequest.url = 'http://127.0.0.1:4010/app/s/spc_1/change-requests/2';
    docs.lastMerge = { at: ago(10), changeRequest: { id: 'cr_9f8e7d', number: 2 }, revision: 'rev_2' };
    const markup = page(status);
    const link = '<a href="http://127.0.0.1:4010/app/s/spc_1/change-requests/2">#2</a>';
    expect(sectionOf(markup, 'mappings')).toContain(`merged ${link}`);
    expect(sectionOf(markup, 'mappings')).toContain(`into ${link}`);
    expect(sectionOf(markup, 'change-requests')).toContain(`<td>${link}</td>`);
  });
});

describe('the stored link check, as /status summarises it', () => {
  const record = { at: ago(30), revision: 'rev_2', stats: { total: 12, broken: { total: 2 } } };

  it('keeps the file, line and column of each link', () => {
    const summary = summaryOfLinkCheck({ ...record, broken: [INSTALL_LINK] });
    expect(summary).toEqual({ at: ago(30), revision: 'rev_2', broken: 1, total: 12, links: [INSTALL_LINK] });
  });

  it('reads a record written before links were placed in git, and counts a link it cannot read', () => {
    const old = { pageId: 'pg_1', pageTitle: 'Install', target: 'nowhere.md' };
    const summary = summaryOfLinkCheck({ ...record, broken: [old, { pageId: 7 }] });
    expect(summary?.broken).toBe(2);
    expect(summary?.links).toEqual([old]);
    // An answer of an older daemon, without the links, still reads.
    const status = answer({ linkChecks: [{ target: 'main', at: ago(30), revision: 'rev_1', broken: 1 }] });
    expect(status.mappings).toEqual([
      expect.objectContaining({ linkChecks: [expect.objectContaining({ links: [] })] }),
    ]);
  });

  it(`lists the first ${BROKEN_LINKS_LISTED} links and counts them all`, () => {
    const links = Array.from({ length: BROKEN_LINKS_LISTED + 5 }, (_, i) => ({
      ...INSTALL_LINK,
      line: i + 1,
    }));
    const summary = summaryOfLinkCheck({ ...record, broken: links });
    expect(summary?.broken).toBe(BROKEN_LINKS_LISTED + 5);
    expect(summary?.links).toHaveLength(BROKEN_LINKS_LISTED);
  });
});
