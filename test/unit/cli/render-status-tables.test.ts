import { describe, expect, it } from 'vitest';
import { renderStatusTables, SHOWN_FAILURES, SHOWN_WARNINGS } from '../../../src/cli/render-status-tables.js';
import { type StatusAnswer, statusAnswerSchema } from '../../../src/status/status-answer-schema.js';
import { sampleImportWarnings } from '../../support/sample-import-warnings.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();
const inSeconds = (seconds: number) => new Date(NOW.getTime() + seconds * 1000).toISOString();

const counts = { waiting: 0, active: 1, delayed: 2, failed: 0 };

function answer(overrides: Record<string, unknown> = {}): StatusAnswer {
  return statusAnswerSchema.parse({
    version: '0.1.0',
    startedAt: '2026-11-21T10:00:00.123Z',
    uptimeSeconds: 7200,
    mappings: [
      {
        name: 'product-docs',
        space: 'space_1',
        direction: 'both',
        state: 'ok',
        lastImport: {
          at: ago(120),
          result: 'imported',
          source: 'git',
          sha: '3f2a1b2c3d4e5f60718293a4b5c6d7e8f9012345',
          changeRequest: { id: 'cr_4', number: 4 },
          warnings: sampleImportWarnings(),
        },
        lastMerge: { at: ago(600), changeRequest: { id: 'cr_3', number: 3 }, revision: 'rev_3' },
        lastExport: { at: ago(300), result: 'conflict', revision: 'rev_9' },
        changeRequests: [
          {
            changeRequest: 'cr_4',
            number: 4,
            subject: 'docs: x',
            revision: 'rev_5',
            mergeable: false,
            reasons: ['needs 1 more approval', '2 broken links'],
            at: ago(5),
          },
        ],
        linkChecks: [
          { target: 'main', at: ago(600), revision: 'rev_3', broken: 0, total: 14 },
          {
            target: 'cr_4',
            number: 4,
            at: ago(60),
            revision: 'rev_5',
            broken: 2,
            total: 12,
            links: [
              {
                pageId: 'pg_1',
                pageTitle: 'Install',
                pagePath: 'guides/install',
                target: 'nowhere.md',
                sourcePath: 'guides/install.md',
                file: 'docs/guides/install.md',
                line: 12,
                column: 5,
              },
              { pageId: 'pg_2', pageTitle: 'Notes', target: 'https://gone.example/', noGitFile: true },
            ],
          },
        ],
      },
      {
        name: 'api-docs',
        space: 'space_2',
        direction: 'git-to-space',
        state: 'paused',
        paused: { reason: 'force-push', detail: 'branch main was rewritten', at: ago(3600) },
        changeRequests: [],
        linkChecks: [],
      },
    ],
    openapi: [
      {
        org: 'org_acme',
        slug: 'payments',
        title: 'Payments API',
        state: 'ok',
        version: 'oav_2',
        lastRefresh: { at: ago(30), result: 'unchanged', trigger: 'schedule' },
        lastNewVersion: {
          at: ago(86_400),
          result: 'uploaded',
          version: 'oav_2',
          changelog: ['added POST /refunds', 'changed GET /payments/{id}'],
        },
      },
    ],
    queues: { import: counts, links: { ...counts, failed: 3 } },
    nextRuns: [
      { queue: 'import', key: 'poll-git/product-docs', name: 'poll-git', next: inSeconds(12), every: 30_000 },
      {
        queue: 'links',
        key: 'links-schedule/product%2Ddocs',
        name: 'check-links',
        next: inSeconds(3 * 3600),
        pattern: '0 */6 * * *',
        tz: 'Europe/Paris',
      },
    ],
    events: [
      {
        at: ago(600),
        queue: 'maintain',
        job: 'merge-change-request',
        result: 'merged',
        summary: 'merged change request #3',
        mapping: 'product-docs',
      },
      {
        at: ago(610),
        queue: 'openapi',
        job: 'refresh-openapi',
        result: 'uploaded',
        summary: 'uploaded spec org_acme/payments: version oav_2, operations +1 -0 ~1',
      },
    ],
    failures: [
      {
        queue: 'import',
        name: 'poll-git',
        id: 'repeat:poll-git/api-docs:1',
        failedReason: 'GIT_NOT_FOUND: git fetch failed:\nrepository not found',
        attemptsMade: 1,
        at: ago(90),
      },
    ],
    ...overrides,
  });
}

describe('renderStatusTables', () => {
  it('prints every part as aligned plain-text tables', () => {
    expect(renderStatusTables(answer(), { now: NOW, color: false })).toBe(
      [
        'docsync 0.1.0, up 2h (since 2026-11-21 10:00:00Z)',
        '',
        'Mappings',
        'NAME          DIRECTION     STATE                LAST IMPORT  COMMIT        CR  WHEN    WARNINGS  LAST MERGE  LAST EXPORT',
        'product-docs  both          ok                   imported     3f2a1b2c3d4e  #4  2m ago         2  #3 10m ago  conflict 5m ago',
        'api-docs      git-to-space  paused (force-push)  -            -             -   -              -  -           -',
        '  api-docs: paused 1h ago: branch main was rewritten',
        '',
        'Import warnings',
        'MAPPING       WHERE            WARNING',
        'product-docs  SUMMARY.md:12    guides/old.md is not in the folder: the entry is skipped.',
        'product-docs  drafts/notes.md  No SUMMARY.md entry lists this page: it is not imported.',
        '',
        'Change requests',
        'MAPPING       CR  VERDICT        LINKS            REASONS',
        'product-docs  #4  not mergeable  2 broken 1m ago  needs 1 more approval; 2 broken links',
        '',
        'Broken links',
        'WHERE                             PAGE            FILE IN GIT                                       LINK TO',
        'change request #4 (product-docs)  guides/install  docs/guides/install.md:12:5                       nowhere.md',
        'change request #4 (product-docs)  Notes           no file in git: the page was made in the service  https://gone.example/',
        '',
        'Link checks',
        'MAPPING       TARGET  REVISION  BROKEN  LINKS  WHEN',
        'product-docs  main    rev_3          0     14  10m ago',
        'product-docs  #4      rev_5          2     12  1m ago',
        '',
        'OpenAPI specs',
        'ORG       SPEC                     STATE  LAST REFRESH  WHEN     VERSION  LAST CHANGES',
        'org_acme  payments (Payments API)  ok     unchanged     30s ago  oav_2    added POST /refunds (+1 more)',
        '',
        'Queues',
        'QUEUE   WAITING  ACTIVE  DELAYED  FAILED',
        'import        0       1        2       0',
        'links         0       1        2       3',
        '',
        'Next runs',
        'WHEN    AT                    QUEUE   SCHEDULER                    SCHEDULE',
        'in 12s  2026-11-21 12:00:12Z  import  poll-git/product-docs        every 30s',
        'in 3h   2026-11-21 15:00:00Z  links   links-schedule/product-docs  cron 0 */6 * * * (Europe/Paris)',
        '',
        'Recent events',
        'WHEN     MAPPING       WHAT HAPPENED',
        '10m ago  product-docs  merged change request #3',
        '10m ago  -             uploaded spec org_acme/payments: version oav_2, operations +1 -0 ~1',
        '',
        'Recent failures (1)',
        'WHEN    QUEUE   JOB       ID                          ATTEMPTS  REASON',
        '1m ago  import  poll-git  repeat:poll-git/api-docs:1         1  GIT_NOT_FOUND: git fetch failed: repository not found',
        '',
      ].join('\n'),
    );
  });

  it('colours states, verdicts and failures for a terminal, keeping the columns aligned', () => {
    const text = renderStatusTables(answer(), { now: NOW, color: true });
    expect(text).toContain('\u001b[32mok                 \u001b[39m');
    expect(text).toContain('\u001b[33mpaused (force-push)\u001b[39m');
    expect(text).toContain('\u001b[33mnot mergeable\u001b[39m');
    // Without its escape sequences, the text is the plain one.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing colours is the point.
    expect(text.replace(/\u001b\[\d+m/g, '')).toBe(renderStatusTables(answer(), { now: NOW, color: false }));
  });

  it('shows a part the daemon could not read as unavailable, and the others as usual', () => {
    const text = renderStatusTables(
      answer({
        failures: { error: 'no answer within 5000 ms' },
        openapi: [],
        mappings: [
          {
            name: 'docs',
            space: 's',
            direction: 'git-to-space',
            error: 'the state of mapping docs is not valid',
          },
        ],
      }),
      { now: NOW, color: false },
    );
    expect(text).toContain('Recent failures: unavailable (no answer within 5000 ms)\n');
    expect(text).toContain('OpenAPI specs: none configured\n');
    expect(text).toMatch(/^docs +git-to-space +unreadable +- +- +- +- +- +- +-$/m);
    expect(text).toContain('Import warnings: none\n');
    expect(text).toContain('  docs: state unreadable: the state of mapping docs is not valid\n');
    expect(text).toContain('Change requests: none open\n');
    expect(text).toContain('Queues\n');
  });

  it("says when a mapping's repository sends push webhooks, and how often git is looked at then", () => {
    const text = renderStatusTables(
      answer({
        mappings: [
          {
            name: 'docs',
            space: 's',
            direction: 'git-to-space',
            state: 'ok',
            pushHook: { at: ago(300), looksEvery: 3_600_000 },
          },
        ],
      }),
      { now: NOW, color: false },
    );
    expect(text).toContain('  docs: push webhooks, last 5m ago: git looked at every 1h\n');
  });

  it('lists the first warnings of each mapping and says how many more there are, and where', () => {
    const warning = (line: number) => ({
      code: 'SUMMARY_ENTRY_UNCLEAR',
      file: 'SUMMARY.md',
      line,
      message: `line ${line}: text after the link is ignored.`,
    });
    const mapping = (name: string, listed: number, warningCount?: number) => ({
      name,
      direction: 'git-to-space',
      state: 'ok',
      lastImport: {
        at: ago(1),
        result: 'imported',
        warnings: Array.from({ length: listed }, (_, i) => warning(i + 1)),
        ...(warningCount === undefined ? {} : { warningCount }),
      },
    });
    const text = renderStatusTables(
      answer({ mappings: [mapping('big', 50, 72), mapping('mid', SHOWN_WARNINGS + 2), mapping('small', 1)] }),
      { now: NOW, color: false },
    );
    expect(text).toMatch(/^big +git-to-space +ok +imported +- +- +1s ago +72 +- +-$/m);
    expect(text.match(/^big +SUMMARY\.md:\d+ /gm)).toHaveLength(SHOWN_WARNINGS);
    expect(text.match(/^mid +SUMMARY\.md:\d+ /gm)).toHaveLength(SHOWN_WARNINGS);
    expect(text).toMatch(/^small +SUMMARY\.md:1 +line 1: text after the link is ignored\.$/m);
    expect(text).toContain(
      `… ${72 - SHOWN_WARNINGS} more of big: docsync status --json lists the first 50\n`,
    );
    expect(text).toContain('… 2 more of mid: docsync status --json lists them all\n');
    expect(text).not.toContain('more of small');
  });

  it('colours a mapping with warnings and prints no control characters from a warning', () => {
    const lastImport = {
      at: ago(1),
      result: 'imported',
      warnings: [{ code: 'X', file: 'a\u001b[2J.md', line: 1, message: 'bad \u001b]0;t\u0007 file' }],
    };
    const mappings = [{ name: 'docs', direction: 'both', state: 'ok', lastImport }];
    const colored = renderStatusTables(answer({ mappings }), { now: NOW, color: true });
    expect(colored).toContain('\u001b[33m       1\u001b[39m');
    const plain = renderStatusTables(answer({ mappings }), { now: NOW, color: false });
    expect(plain).toMatch(/^docs +a \[2J\.md:1 +bad \]0;t file$/m);
  });

  it('lists the newest failures and says how many more --json has', () => {
    const failure = {
      queue: 'import',
      name: 'poll-git',
      id: 'j',
      failedReason: 'x',
      attemptsMade: 1,
      at: ago(1),
    };
    const text = renderStatusTables(
      answer({ failures: Array.from({ length: SHOWN_FAILURES + 5 }, () => failure) }),
      { now: NOW, color: false },
    );
    expect(text).toContain(`Recent failures (${SHOWN_FAILURES + 5})\n`);
    expect(text).toContain('… 5 more: docsync status --json shows them all\n');
  });

  it('prints no control characters that came in the answer', () => {
    const text = renderStatusTables(
      answer({
        failures: [
          {
            queue: 'import',
            name: 'poll-git',
            id: 'j',
            failedReason: 'bad \u001b[2J\u001b]0;title\u0007 reason',
            attemptsMade: 1,
            at: ago(1),
          },
        ],
      }),
      { now: NOW, color: false },
    );
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u0007');
  });

  it('leaves out next runs and failures a daemon older than them does not send', () => {
    const { nextRuns: _n, failures: _f, ...older } = answer();
    const text = renderStatusTables(older, { now: NOW, color: false });
    expect(text).not.toContain('Next runs');
    expect(text).not.toContain('Recent failures');
  });
});
