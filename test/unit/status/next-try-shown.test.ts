// Work that failed for good and backs off: the headline of the status page and of `docsync status`
// says when it is tried next, and how a person has it tried now.
import { describe, expect, it } from 'vitest';
import { healthSummary } from '../../../src/status/health-summary.js';
import { type StatusAnswer, statusAnswerSchema } from '../../../src/status/status-answer-schema.js';
import { pageText, tablesText } from '../../support/status-views.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const AT = '2026-11-21T11:58:00.000Z';
const HINT = 'the git remote refused the credentials: check git.repo of mapping docs';
const RETRY = 'once that is fixed, docsync retry --mapping docs tries it now (so does a restart)';

function answer(nextTry: string | undefined): StatusAnswer {
  const last = {
    at: AT,
    code: 'GIT_AUTH',
    message: 'git push refused',
    hint: HINT,
    ...(nextTry === undefined ? {} : { nextTry }),
  };
  const mappings = [
    {
      name: 'docs',
      direction: 'both',
      state: 'failing',
      failures: [{ job: 'export-space', count: 4, since: AT, last }],
      lastError: last,
      changeRequests: [],
      linkChecks: [],
    },
  ];
  // Through JSON, as `docsync status` and the page receive it.
  const body = JSON.parse(
    JSON.stringify({
      version: '0.1.0',
      startedAt: '2026-11-21T10:00:00.000Z',
      uptimeSeconds: 7200,
      summary: healthSummary(mappings as Parameters<typeof healthSummary>[0], []),
      mappings,
      openapi: [],
      queues: { export: { waiting: 0, failed: 4 } },
    }),
  );
  return statusAnswerSchema.parse(body);
}

const page = (status: StatusAnswer) => pageText(status, NOW);
const tables = (status: StatusAnswer) => tablesText(status, NOW);

describe('the next try of work that backs off', () => {
  it('is shown with the failure, with how to try it now, in the tables and on the page', () => {
    const status = answer('2026-11-21T12:04:10.000Z');
    expect(status.summary?.problems[0]?.nextTry).toBe('2026-11-21T12:04:10.000Z');
    expect(tables(status).split('\n').slice(1, 4)).toEqual([
      '1 needs attention: mapping docs',
      '  mapping docs is failing (export-space failed 4 times in a row since 2m ago): GIT_AUTH git push refused; next try in 4m',
      `    hint: ${HINT}; ${RETRY}`,
    ]);
    expect(page(status)).toContain(
      'mapping docs is failing (export-space failed 4 times in a row since 2m ago): GIT_AUTH git push refused; next try in 4m',
    );
    expect(page(status)).toContain(`${HINT}; ${RETRY}`);
  });

  it('says the work is tried when next queued once its back-off is over', () => {
    expect(tables(answer('2026-11-21T11:59:00.000Z'))).toContain(
      'GIT_AUTH git push refused; next try when it is next queued\n',
    );
  });

  it('is not shown for a failure of work without a back-off', () => {
    const text = tables(answer(undefined));
    expect(text).not.toContain('next try');
    expect(text).toContain(`    hint: ${HINT}\n`);
  });
});
