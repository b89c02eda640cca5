// Issue 19: three `docsync start` processes on one Redis with one configuration. Every poll is a
// BullMQ job scheduler: each tick is one job, whichever process takes it, so the service sees one
// list of change requests per poll interval (not one per process) and one upload per change of the
// spec, and the per-space lock holds across the three.
import { describe, expect, it } from 'vitest';
import { startProcessesWorld } from '../../support/processes-world.js';
import { lockProblems } from '../../support/space-write-spans.js';
import { stalledJobs, tickRuns, ticksRunTwice } from '../../support/tick-runs.js';
import { waitFor } from '../../support/wait-for.js';

const LIST = 'GET /v1/spaces/:s/change-requests';
const UPLOAD = 'PUT /v1/orgs/:o/openapi/:slug';
/** The change request polls and the spec refreshes of the world tick every second. */
const TICK_MS = 1000;
const TICKS = 6;
/** Three processes starting at once on two shared cores, and the first jobs after them. */
const SETTLE_MS = 90_000;

/** Refreshes that lost their lock, or whose job BullMQ found stalled. */
function cutShortRefreshes(lines: readonly Record<string, unknown>[]): number {
  const stalled = stalledJobs(lines);
  return lines.filter(
    (line) =>
      line.name === 'refresh-openapi' &&
      (line.code === 'LOCK_LOST' || (line.msg === 'job completed' && stalled.has(String(line.job)))),
  ).length;
}

describe('three docsync processes on one Redis', () => {
  it('run each scheduler tick once: one list per change request poll, one upload per changed spec', async () => {
    const world = await startProcessesWorld({ name: 'ticks', doors: 3, approvals: 1 });
    const { logged } = world;
    const processes = await world.start(3);
    await waitFor(() => logged.count(UPLOAD) >= 1, 'the first upload of the spec', SETTLE_MS);

    const since = Date.now();
    const runs = await waitFor(
      () => {
        const found = tickRuns(processes.lines(), 'poll-change-requests/oneway', since);
        return found.length >= TICKS ? found : undefined;
      },
      `${TICKS} change request polls of oneway`,
      SETTLE_MS,
    );
    const until = Date.now();
    const stalled = stalledJobs(processes.lines());
    expect(ticksRunTwice(runs, stalled)).toEqual([]);
    const ticks = [...new Set(runs.map((run) => run.tick))].sort((a, b) => a - b);
    for (const [index, tick] of ticks.slice(1).entries())
      expect(tick - (ticks[index] ?? 0)).toBeGreaterThanOrEqual(TICK_MS);
    // The service's view: lists of the space about once per interval, where three processes each
    // running every tick would list three times as often. Other jobs list too (an import finding its
    // change request, a tick's job taken over after its process stalled): the bound is twice the
    // ticks, which one list per process and tick would pass three times over.
    const lists = logged.requests.filter(
      (request) =>
        request.route === LIST &&
        request.space === world.spaces.oneway &&
        request.door !== undefined &&
        request.start >= since &&
        request.start <= until,
    ).length;
    expect(lists).toBeGreaterThanOrEqual(TICKS - 1);
    expect(lists).toBeLessThan(2 * (Math.floor((until - since) / TICK_MS) + 1));

    // One upload per change of the spec, however many processes refresh it every second.
    for (const [change, version] of ['1.0.1', '1.0.2'].entries()) {
      await world.writeSpec(version);
      await waitFor(() => logged.count(UPLOAD) >= change + 2, `the upload of ${version}`, SETTLE_MS);
      const uploaded = Date.now();
      // Refreshes after the upload find the spec unchanged, in whichever process they run.
      await waitFor(
        () =>
          tickRuns(processes.lines(), `refresh-openapi/${logged.service.orgId}%2Fpets`, uploaded).length >= 3,
        'three refreshes after the upload',
        SETTLE_MS,
      );
      // A refresh cut short after its upload (its process stalled and BullMQ gave the job to another)
      // uploads again when it runs again: BullMQ runs a job at least once, not exactly once.
      expect(logged.count(UPLOAD)).toBe(change + 2 + cutShortRefreshes(processes.lines()));
    }
    expect(logged.requests.filter((request) => request.route === UPLOAD && request.status !== 200)).toEqual(
      [],
    );

    const { problems, writingJobs } = lockProblems(
      logged.requests,
      logged.service.tokens.admin,
      processes.history.map(({ slot, run }) => ({ door: slot, lines: run.lines() })),
    );
    expect(problems.join('\n')).toBe('');
    expect(writingJobs).toBeGreaterThanOrEqual(3);
  }, 300_000);
});
