// The health rule of mappings and specs, and the summary the status page, `docsync status` and
// /metrics read: what is ok, degraded, failing or paused, and each problem with what and why.
import { describe, expect, it } from 'vitest';
import { healthOf, type JobFailures, jobFailures } from '../../../src/status/health-state.js';
import { healthSummary } from '../../../src/status/health-summary.js';
import { headline, problemText } from '../../../src/status/problem-text.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const AT = '2026-11-21T11:55:00.000Z';

function run(job: string, count: number): JobFailures {
  return {
    job,
    count,
    since: AT,
    last: { at: AT, code: 'API_HTTP_ERROR', message: 'GET /spaces/spc_1: 401', hint: 'check service.token' },
  };
}

describe('healthOf', () => {
  it('is ok without failures, degraded below failingAfter in a row, failing from it on', () => {
    expect(healthOf(false, [], 3)).toBe('ok');
    expect(healthOf(false, [run('poll-git', 1), run('poll-space', 2)], 3)).toBe('degraded');
    expect(healthOf(false, [run('poll-git', 1), run('poll-space', 3)], 3)).toBe('failing');
    expect(healthOf(false, [run('poll-git', 1)], 1)).toBe('failing');
  });

  it('is paused whatever failed: a person must resume the mapping', () => {
    expect(healthOf(true, [run('poll-git', 9)], 3)).toBe('paused');
  });
});

describe('jobFailures', () => {
  it("lists a mapping's failing jobs, the most failures in a row first", () => {
    const { last, since } = run('x', 1);
    const runs = { 'poll-git': { count: 1, since, last }, 'poll-change-requests': { count: 4, since, last } };
    expect(jobFailures(runs).map(({ job, count }) => [job, count])).toEqual([
      ['poll-change-requests', 4],
      ['poll-git', 1],
    ]);
    expect(jobFailures(undefined)).toEqual([]);
  });
});

describe('healthSummary', () => {
  const mappings = [
    { name: 'fine', state: 'ok' as const },
    { name: 'flaky', state: 'degraded' as const, failures: [run('poll-git', 1)] },
    {
      name: 'broken',
      state: 'failing' as const,
      failures: [run('poll-change-requests', 4), run('poll-git', 1)],
    },
    {
      name: 'held',
      state: 'paused' as const,
      paused: { reason: 'force-push', detail: 'branch main was rewritten', at: AT },
    },
    { name: 'lost', error: 'the state of mapping lost in Redis is not valid' },
  ];
  const specs = [{ org: 'org_1', slug: 'pets', state: 'ok' as const }];

  it('counts each state and names every problem, worst first, with what and why', () => {
    const summary = healthSummary(mappings, specs);
    expect(summary.mappings).toEqual({ ok: 1, degraded: 1, failing: 1, paused: 1 });
    expect(summary.openapi).toEqual({ ok: 1, degraded: 0, failing: 0, paused: 0 });
    expect(summary.problems.map(({ name, state }) => [name, state])).toEqual([
      ['broken', 'failing'],
      ['lost', 'unreadable'],
      ['held', 'paused'],
      ['flaky', 'degraded'],
    ]);
    expect(summary.problems[0]).toEqual({
      kind: 'mapping',
      name: 'broken',
      state: 'failing',
      job: 'poll-change-requests',
      count: 4,
      since: AT,
      code: 'API_HTTP_ERROR',
      message: 'GET /spaces/spc_1: 401',
      hint: 'check service.token',
    });
    expect(summary.problems[2]).toMatchObject({
      hint: 'run docsync resume held once the reason is dealt with',
    });
  });

  it('names a part of the status that could not be read as a problem', () => {
    const summary = healthSummary({ error: 'no answer within 5000 ms' }, specs);
    expect(summary.problems).toEqual([
      { kind: 'status', name: 'mappings', state: 'unreadable', message: 'no answer within 5000 ms' },
    ]);
    expect(summary.mappings).toEqual({ ok: 0, degraded: 0, failing: 0, paused: 0 });
  });

  it('reads as "all in sync", or how many problems, each one sentence', () => {
    expect(headline(healthSummary([mappings[0] as { name: string; state: 'ok' }], specs))).toBe(
      'all in sync (1 mapping, 1 spec)',
    );
    const summary = healthSummary(mappings, specs);
    expect(headline(summary)).toBe('4 problems');
    expect(summary.problems.map((problem) => problemText(problem, NOW))).toEqual([
      'mapping broken is failing (poll-change-requests failed 4 times in a row since 5m ago): API_HTTP_ERROR GET /spaces/spc_1: 401',
      'mapping lost is unreadable: STATE_INVALID the state of mapping lost in Redis is not valid',
      'mapping held is paused since 5m ago: force-push branch main was rewritten',
      'mapping flaky is degraded (poll-git failed once since 5m ago): API_HTTP_ERROR GET /spaces/spc_1: 401',
    ]);
  });
});
