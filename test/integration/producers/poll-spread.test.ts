// The polls of a fleet spread over their interval: each scheduler ticks at a place drawn from its
// repository (the mappings of one repository in one scheduler), a new one's first poll runs at once but
// paced, and a restart keeps the places and queues no first polls again. Read from BullMQ's
// schedulers and delayed jobs, without waiting for a tick.
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { mappingSchema } from '../../../src/config/mapping-schema.js';
import {
  FIRST_POLL_PACE_MS,
  syncChangeRequestPollSchedulers,
  syncGitPollSchedulers,
} from '../../../src/producers/git-poll-schedulers.js';
import { repositoryKey } from '../../../src/producers/git-poll-schedules.js';
import { closeAfter } from '../../support/close-after.js';
import { captureLog, testRedis, uniquePrefix } from '../../support/test-context.js';

const MAPPINGS = 200;
const EVERY_MS = 60_000;

/** Mapping i follows repository i (two mappings share repository 0: m0 and m1). */
function fleet(count: number) {
  return Array.from({ length: count }, (_, i) =>
    mappingSchema.parse({
      name: `m${i}`,
      space: `spc_${i}`,
      git: { repo: `/repos/r${Math.max(0, i - 1)}.git`, branch: 'main', dir: `docs-${i}`, poll: '1m' },
      changeRequest: { poll: '1m' },
    }),
  );
}

function queueOn(name: string, prefix: string): Queue {
  const queue = new Queue(name, { connection: testRedis(prefix), prefix });
  closeAfter(() => queue.close());
  return queue;
}

/** The most of `times` (ms) that fall in one second. */
function busiestSecond(times: readonly number[]): number {
  const perSecond = new Map<number, number>();
  for (const time of times)
    perSecond.set(Math.floor(time / 1000), (perSecond.get(Math.floor(time / 1000)) ?? 0) + 1);
  return Math.max(...perSecond.values());
}

describe('the polls of 200 mappings', () => {
  it('tick spread over their interval, the mappings of one repository in one scheduler', async () => {
    const prefix = uniquePrefix('poll-spread');
    const queue = queueOn('import', prefix);
    const { log } = captureLog();
    const mappings = fleet(MAPPINGS);
    const synced = Date.now();
    await syncGitPollSchedulers(queue, mappings, log);

    const schedulers = await queue.getJobSchedulers(0, -1);
    expect(schedulers).toHaveLength(MAPPINGS - 1);
    const next = new Map(schedulers.map((scheduler) => [scheduler.key, scheduler.next ?? Number.NaN]));
    const times = [...next.values()];
    // Every one within the interval to come, over most of it, evenly: 199 repositories over 60
    // seconds are 3.3 a second on average, 4 at most.
    for (const time of times) expect(time - synced).toBeLessThanOrEqual(EVERY_MS + 1000);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(EVERY_MS / 2);
    expect(busiestSecond(times)).toBeLessThanOrEqual(4);
    const shared = schedulers.find(
      (one) => one.key === `poll-git/${repositoryKey('/repos/r0.git', EVERY_MS)}`,
    );
    expect(shared?.template?.data).toEqual({ mappings: ['m0', 'm1'] });
    expect(next.has('poll-git/m0')).toBe(false);
    expect(next.has('poll-git/m2')).toBe(true);
  });

  it('poll at once when new, paced rather than in one second, and not again after a restart', async () => {
    const prefix = uniquePrefix('poll-first');
    const queue = queueOn('import', prefix);
    const { log } = captureLog();
    const mappings = fleet(MAPPINGS);
    await syncGitPollSchedulers(queue, mappings, log);

    const first = (await queue.getJobs(['delayed', 'waiting'], 0, -1)).filter((job) =>
      /^poll-git\/[^/]+\/first-\d+$/.test(job.id ?? ''),
    );
    expect(first).toHaveLength(MAPPINGS - 1);
    const delays = first.map((job) => job.opts.delay ?? 0).sort((a, b) => a - b);
    expect(delays[0]).toBe(0);
    // 199 repositories, FIRST_POLL_PACE_MS apart (m0 and m1 in one job), the last about 10 s on.
    expect(delays.at(-1)).toBe((MAPPINGS - 2) * FIRST_POLL_PACE_MS);
    expect(busiestSecond(delays)).toBeLessThanOrEqual(1000 / FIRST_POLL_PACE_MS);

    const before = new Map((await queue.getJobSchedulers(0, -1)).map((one) => [one.key, one.next]));
    await syncGitPollSchedulers(queue, mappings, log);
    const after = new Map((await queue.getJobSchedulers(0, -1)).map((one) => [one.key, one.next]));
    expect(after).toEqual(before);
    const again = (await queue.getJobs(['delayed', 'waiting'], 0, -1)).filter((job) =>
      /^poll-git\/[^/]+\/first-\d+$/.test(job.id ?? ''),
    );
    expect(again).toHaveLength(MAPPINGS - 1);

    // A mapping added to a repository's scheduler polls now, with the others of its repository.
    const added = mappingSchema.parse({
      name: 'added',
      space: 'spc_added',
      git: { repo: '/repos/r0.git', branch: 'main', dir: 'docs-added', poll: '1m' },
      changeRequest: { poll: '1m' },
    });
    await syncGitPollSchedulers(queue, [...mappings, added], log);
    const firstRuns = (await queue.getJobs(['delayed', 'waiting'], 0, -1)).filter((job) =>
      /^poll-git\/repo\.r0\.[^/]+\/first-\d+$/.test(job.id ?? ''),
    );
    expect(firstRuns.map((job) => job.data)).toContainEqual({ mappings: ['m0', 'm1', 'added'] });
    const others = (await queue.getJobs(['delayed', 'waiting'], 0, -1)).filter((job) =>
      /^poll-git\/[^/]+\/first-\d+$/.test(job.id ?? ''),
    );
    expect(others).toHaveLength(MAPPINGS);
  });

  it('spread their change request polls, in batches, over the interval too', async () => {
    const prefix = uniquePrefix('poll-spread-cr');
    const queue = queueOn('maintain', prefix);
    const { log } = captureLog();
    await syncChangeRequestPollSchedulers(queue, fleet(MAPPINGS), log);
    const times = (await queue.getJobSchedulers(0, -1)).map((scheduler) => scheduler.next ?? Number.NaN);
    // 200 mappings in 10 batches of 20, each at a place of its own.
    expect(times).toHaveLength(10);
    expect(new Set(times.map((time) => Math.floor(time / 1000))).size).toBeGreaterThan(5);
  });
});
