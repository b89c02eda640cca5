// The health headline at the top of the status page and of `docsync status`, the health of each
// mapping and spec in their tables, the hint under every failure, and the exit code monitoring reads.
import { describe, expect, it } from 'vitest';
import { isFailing } from '../../../src/cli/status-command.js';
import { healthSummary } from '../../../src/status/health-summary.js';
import { renderStatusPage } from '../../../src/status/render-status-page.js';
import { type StatusAnswer, statusAnswerSchema } from '../../../src/status/status-answer-schema.js';
import { pageText, tablesText } from '../../support/status-views.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const AT = '2026-11-21T11:58:00.000Z';
const HINT =
  'the service refused the token: check service.token (and the environment variable it is read from)';
const FAILURE = {
  at: AT,
  code: 'API_HTTP_ERROR',
  message: 'GET /spaces/spc_1/change-requests: 401',
  hint: HINT,
};

function answer(state: 'ok' | 'degraded' | 'failing', specState: 'ok' | 'failing' = 'ok'): StatusAnswer {
  const failures =
    state === 'ok' ? [] : [{ job: 'poll-change-requests', count: 3, since: AT, last: FAILURE }];
  const mappings = [
    {
      name: 'docs',
      direction: 'git-to-space',
      state,
      failures,
      ...(state === 'ok' ? {} : { lastError: FAILURE }),
      changeRequests: [],
      linkChecks: [],
    },
  ];
  const refreshError = {
    code: 'SOURCE_UNREACHABLE',
    message: 'GET https://specs.example/pets.yaml: refused',
    hint: 'check source',
  };
  const openapi = [
    {
      org: 'org_1',
      slug: 'pets',
      state: specState,
      ...(specState === 'ok'
        ? {}
        : {
            failures: [{ job: 'refresh-openapi', count: 5, since: AT, last: { at: AT, ...refreshError } }],
            lastRefresh: { at: AT, result: 'failed', error: refreshError },
          }),
    },
  ];
  return statusAnswerSchema.parse({
    version: '0.1.0',
    startedAt: '2026-11-21T10:00:00.000Z',
    uptimeSeconds: 7200,
    summary: healthSummary(
      mappings as Parameters<typeof healthSummary>[0],
      openapi as Parameters<typeof healthSummary>[1],
    ),
    mappings,
    openapi,
    queues: { import: { waiting: 0, failed: 0 } },
  });
}

const page = (status: StatusAnswer) => pageText(status, NOW);
const tables = (status: StatusAnswer) => tablesText(status, NOW);

describe('the health headline', () => {
  it('says all in sync first on the page and in the tables when nothing is wrong', () => {
    expect(page(answer('ok'))).toMatch(/^ All in sync \(1 mapping, 1 spec\) Version 0\.1\.0/);
    expect(tables(answer('ok')).split('\n').slice(0, 2)).toEqual([
      'docsync 0.1.0, up 2h (since 2026-11-21 10:00:00Z)',
      'all in sync (1 mapping, 1 spec)',
    ]);
  });

  it('counts what needs attention and names each one, why and what to check, above everything else', () => {
    const status = answer('failing', 'failing');
    const text = page(status) ?? '';
    expect(text).toContain(
      ' 2 need attention: mapping docs, spec org_1/pets mapping docs is failing (poll-change-requests failed 3 times in a row since 2m ago): API_HTTP_ERROR GET /spaces/spc_1/change-requests: 401 ',
    );
    expect(text.indexOf('2 need attention')).toBeLessThan(text.indexOf('Version 0.1.0'));
    expect(text).toContain(
      `${HINT} spec org_1/pets is failing (refresh-openapi failed 5 times in a row since 2m ago)`,
    );
    expect(tables(status).split('\n').slice(1, 6)).toEqual([
      '2 need attention: mapping docs, spec org_1/pets',
      '  mapping docs is failing (poll-change-requests failed 3 times in a row since 2m ago): API_HTTP_ERROR GET /spaces/spc_1/change-requests: 401',
      `    hint: ${HINT}`,
      '  spec org_1/pets is failing (refresh-openapi failed 5 times in a row since 2m ago): SOURCE_UNREACHABLE GET https://specs.example/pets.yaml: refused',
      '    hint: check source',
    ]);
  });

  it('shows each health state in the tables, and the hint under the last error and a failed refresh', () => {
    const text = tables(answer('degraded', 'failing'));
    expect(text).toMatch(/^docs +git-to-space +degraded \(poll-change-requests ×3\) +- /m);
    expect(text).toMatch(/^org_1 +pets +failing \(refresh-openapi ×5\) +failed /m);
    expect(text).toContain(
      `  docs: last error 2m ago: API_HTTP_ERROR GET /spaces/spc_1/change-requests: 401\n    hint: ${HINT}\n`,
    );
    expect(text).toContain('  pets: GET https://specs.example/pets.yaml: refused\n    hint: check source\n');
    const html = renderStatusPage(answer('degraded'), { now: NOW, refreshSeconds: 5, dashboard: false });
    expect(html).toContain('<span class="warn">degraded</span>');
    expect(html).toContain(`<span class="hint">${HINT}</span>`);
  });
});

describe('docsync status for monitoring', () => {
  it('fails when a mapping or a spec is failing, not when one is only degraded', () => {
    expect(isFailing(answer('ok'))).toBe(false);
    expect(isFailing(answer('degraded'))).toBe(false);
    expect(isFailing(answer('failing'))).toBe(true);
    expect(isFailing(answer('ok', 'failing'))).toBe(true);
  });
});
