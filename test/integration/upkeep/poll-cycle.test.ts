// One change request poll cycle over several spaces, as the schedulers' ticks queue it (a poll job
// per mapping, run by the job runner against the emulator over HTTP and the private Redis): each new
// change request's link check is queued exactly once, with one addBulk per space; a second cycle
// queues none, whether the checks still wait or have been recorded; a space that cannot be listed
// fails its own poll only, and shows on /status's mappings as failing in a row. Polled in one batch,
// as the scheduler of many mappings at one interval queues them, each mapping's outcome is its own.
import type { Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pollChangeRequestsJob } from '../../../jobs/poll-change-requests/poll-change-requests-job.js';
import type { ChangeRequest } from '../../../src/api/schemas/change-request-schema.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { createJobServices } from '../../../src/daemon/create-job-services.js';
import { runnerPorts } from '../../../src/daemon/runner-ports.js';
import { jobId } from '../../../src/queue/job-id.js';
import { JobRunner } from '../../../src/queue/job-runner.js';
import { Queues } from '../../../src/queue/queues.js';
import { mappingStatuses } from '../../../src/status/mapping-statuses.js';
import { parsePrometheusText, sumOf } from '../../support/prometheus-text.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { setFaults, testApiClient } from '../../support/test-api-client.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { testJobContext } from '../../support/test-job-context.js';
import { waitFor } from '../../support/wait-for.js';

const SPACES = 4;
const CHANGE_REQUESTS = 3;
const prefix = uniquePrefix('poll-cycle');
const redis = testRedis(prefix);
let world: Awaited<ReturnType<typeof setUp>>;

async function setUp() {
  const emulator = await startTestEmulator();
  const spaces: string[] = [];
  for (let i = 0; i < SPACES; i += 1) {
    const space = await createTestSpace(emulator, `Docs ${i}`);
    for (let n = 0; n < CHANGE_REQUESTS; n += 1)
      await callApi(`${emulator.baseUrl}/spaces/${space}/change-requests`, emulator.tokens.admin, 'POST', {
        subject: `Change ${n}`,
      });
    spaces.push(space);
  }
  const mappings = [
    ...spaces.map((space, i) => ({ name: `m${i}`, space })),
    // A space the service does not have: its list fails (404), for good.
    { name: 'gone', space: 'spc_not_there' },
  ];
  const config = parseConfig(
    `redis: { url: "${redisUrl()}", prefix: ${prefix} }
queues: { attempts: 1, concurrency: 4 }
service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }
mappings:
${mappings
  .map(
    ({ name, space }) =>
      `  - { name: ${name}, space: ${space}, git: { repo: https://example.invalid/${name}.git, branch: main }, changeRequest: { manage: all } }`,
  )
  .join('\n')}
`,
    'test.yaml',
    {},
  );
  const { log, lines } = captureLog('warn');
  const queues = new Queues(redis, config, log);
  const api = testApiClient(emulator).client;
  const deps = createJobServices({ config, redis, queues, log, api });
  const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const runner = new JobRunner({
    definitions: [pollChangeRequestsJob],
    connection,
    config,
    ...runnerPorts(deps),
    log,
    stopSignal: new AbortController().signal,
  });
  runner.start();
  afterAll(async () => {
    await runner.close();
    await queues.close();
    await connection.quit();
  });
  const listed = async (space: string) => {
    const crs: ChangeRequest[] = [];
    for await (const cr of api.changeRequests.listAll(space, { status: 'open' })) crs.push(cr);
    return crs;
  };
  return { emulator, spaces, mappings, config, deps, queues, listed, lines };
}

let cycles = 0;

/** How many change request polls of `mapping` ended in `result`, as /metrics counts them. */
async function pollsCounted(mapping: string, result: 'polled' | 'failed'): Promise<number> {
  const text = await world.deps.metrics.text();
  return sumOf(parsePrometheusText(text), 'docsync_change_request_polls_total', { mapping, result });
}

/** One tick of every mapping's poll, queued at once; resolves with each poll job once all finished. */
async function cycle(): Promise<Job[]> {
  const { mappings, queues } = world;
  cycles += 1;
  const maintain = queues.get('maintain');
  const polls = await maintain.addBulk(
    mappings.map(({ name }) => ({
      name: 'poll-change-requests',
      data: { mapping: name },
      opts: { jobId: `tick-${cycles}-${name}` },
    })),
  );
  const ids = polls.map((job) => job.id ?? '');
  return waitFor(async () => {
    const states = await Promise.all(ids.map((id) => maintain.getJobState(id)));
    if (!states.every((state) => state === 'completed' || state === 'failed')) return undefined;
    return Promise.all(ids.map(async (id) => (await maintain.getJob(id)) as Job));
  }, `the polls of cycle ${cycles}`);
}

async function waitingChecks(): Promise<string[]> {
  const jobs = await world.queues.get('links').getJobs(['waiting', 'prioritized', 'delayed']);
  return jobs.map((job) => job.id ?? '').sort();
}

describe('a change request poll cycle over several spaces', () => {
  beforeAll(async () => {
    world = await setUp();
  });

  it('queues each new change request check once, one addBulk per space, and a second cycle none', async () => {
    const { spaces, queues, listed, deps } = world;
    const links = queues.get('links');
    const addBulk = vi.spyOn(links, 'addBulk');
    const add = vi.spyOn(links, 'add');

    const first = await cycle();
    const expected: string[] = [];
    for (const space of spaces)
      for (const cr of await listed(space)) expected.push(jobId('links', space, cr.id, cr.revision));
    expect(expected).toHaveLength(SPACES * CHANGE_REQUESTS);
    expect(await waitingChecks()).toEqual(expected.sort());
    expect(add).not.toHaveBeenCalled();
    expect(addBulk).toHaveBeenCalledTimes(SPACES);
    for (const [jobs] of addBulk.mock.calls) {
      expect(jobs).toHaveLength(CHANGE_REQUESTS);
      // One space per addBulk.
      expect(new Set(jobs.map((job) => (job.data as { space: string }).space)).size).toBe(1);
    }
    expect(
      first.filter((job) => job.finishedOn !== undefined && job.failedReason === undefined),
    ).toHaveLength(SPACES);

    // Polled again while the checks wait: the same jobs, none added.
    addBulk.mockClear();
    await cycle();
    expect(await waitingChecks()).toEqual(expected);
    expect(addBulk).toHaveBeenCalledTimes(SPACES);
    expect(add).not.toHaveBeenCalled();

    // The checks ran and recorded each revision: nothing to queue, not even an addBulk.
    for (const space of spaces)
      for (const cr of await listed(space))
        await deps.stores.links.set(space, cr.id, {
          at: new Date().toISOString(),
          revision: cr.revision,
          broken: [],
        });
    addBulk.mockClear();
    await cycle();
    expect(addBulk).not.toHaveBeenCalled();
    expect(add).not.toHaveBeenCalled();
    expect(await waitingChecks()).toEqual(expected);
  });

  it('fails the poll of a space it cannot list only, and shows that mapping failing in /status', async () => {
    const { config, deps, spaces } = world;
    const polls = await cycle();
    const gone = polls.find((job) => job.data.mapping === 'gone');
    expect(gone?.failedReason).toMatch(/404/);
    const others = polls.filter((job) => job.data.mapping !== 'gone');
    expect(others.map((job) => job.failedReason)).toEqual(spaces.map(() => undefined));
    expect(others.map((job) => job.returnvalue)).toEqual(
      spaces.map(() => ({ result: 'polled', managed: CHANGE_REQUESTS, updates: 0, merges: 0 })),
    );

    const statuses = await mappingStatuses(
      config,
      deps.stores.mappings,
      deps.stores.verdicts,
      deps.stores.links,
    );
    const byName = new Map(statuses.map((status) => [status.name, status]));
    // Four cycles so far, each a failure in a row of the same job.
    expect(cycles).toBe(4);
    expect(byName.get('gone')).toMatchObject({
      failures: [{ job: 'poll-change-requests', count: 4 }],
      lastError: { code: 'API_HTTP_ERROR' },
    });
    // failingAfter is 3: a fourth failure in a row is failing.
    expect(byName.get('gone')).toHaveProperty('state', 'failing');
    // /metrics counts each mapping's polls by result, as its jobs' outcomes: one per cycle.
    expect(await pollsCounted('gone', 'failed')).toBe(cycles);
    expect(await pollsCounted('gone', 'polled')).toBe(0);
    for (const [index] of spaces.entries()) {
      expect(await pollsCounted(`m${index}`, 'polled')).toBe(cycles);
      expect(await pollsCounted(`m${index}`, 'failed')).toBe(0);
    }
    // A job naming a mapping the configuration does not have fails, and adds no label to /metrics.
    const maintain = world.queues.get('maintain');
    const stray = await maintain.add('poll-change-requests', { mapping: 'not-configured' });
    await waitFor(async () => (await maintain.getJobState(stray.id ?? '')) === 'failed', 'the stray poll');
    expect((await world.deps.metrics.text()).includes('not-configured')).toBe(false);
    for (const [index] of spaces.entries())
      expect(byName.get(`m${index}`)).toMatchObject({
        state: 'ok',
        failures: [],
        changeRequests: expect.arrayContaining([expect.objectContaining({ mergeable: false })]),
      });
    for (const [index] of spaces.entries())
      expect(
        (byName.get(`m${index}`) as { changeRequests?: unknown[] } | undefined)?.changeRequests,
      ).toHaveLength(CHANGE_REQUESTS);
  });
  it('polls a batch of mappings each on its own: a space it cannot list fails that mapping only', async () => {
    const { emulator, config, deps, mappings, queues, spaces, lines } = world;
    const maintain = queues.get('maintain');
    const batch = async () => {
      const added = await maintain.add('poll-change-requests', {
        mappings: mappings.map(({ name }) => name),
      });
      return waitFor(async () => {
        const state = await maintain.getJobState(added.id ?? '');
        return state === 'completed' || state === 'failed'
          ? await maintain.getJob(added.id ?? '')
          : undefined;
      }, 'the batch poll');
    };
    const statuses = async () =>
      new Map(
        (await mappingStatuses(config, deps.stores.mappings, deps.stores.verdicts, deps.stores.links)).map(
          (status) => [status.name, status],
        ),
      );
    const counted = async () => ({
      goneFailed: await pollsCounted('gone', 'failed'),
      m0Failed: await pollsCounted('m0', 'failed'),
      m1Polled: await pollsCounted('m1', 'polled'),
    });
    const before = await counted();
    // The first space's list refused once, for good (403): a failure of m0 in this batch only.
    await setFaults(emulator, {
      forced: [{ status: 403, method: 'GET', path: `${spaces[0]}/change-requests$`, times: 1 }],
    });
    const first = await batch();
    // The batch completes: one mapping's failure is not the others'.
    expect(first?.failedReason).toBeUndefined();
    expect(first?.returnvalue).toEqual({
      result: 'polled',
      mappings: SPACES + 1,
      failed: 2,
      managed: (SPACES - 1) * CHANGE_REQUESTS,
      updates: 0,
      merges: 0,
    });
    // Logged with its mapping and code, as a failed poll job is.
    expect(
      lines.filter(
        (line) => line.msg === 'change request poll of a mapping failed' && line.mapping === 'gone',
      ),
    ).toEqual([expect.objectContaining({ code: 'API_HTTP_ERROR', level: 'error' })]);
    let byName = await statuses();
    // The fifth failure in a row of the same job, whether polled alone or in a batch.
    expect(byName.get('gone')).toMatchObject({
      state: 'failing',
      failures: [{ job: 'poll-change-requests', count: 5 }],
    });
    expect(byName.get('m0')).toMatchObject({ failures: [{ job: 'poll-change-requests', count: 1 }] });
    // The job completed, yet /metrics counts the failed polls of its mappings, each on its own.
    expect(await counted()).toEqual({
      goneFailed: before.goneFailed + 1,
      m0Failed: before.m0Failed + 1,
      m1Polled: before.m1Polled + 1,
    });

    // The next batch lists m0 again: its run of failures ends; gone's goes on.
    const second = await batch();
    expect(second?.returnvalue).toMatchObject({ failed: 1, managed: SPACES * CHANGE_REQUESTS });
    byName = await statuses();
    for (const [index] of spaces.entries())
      expect(byName.get(`m${index}`)).toMatchObject({ state: 'ok', failures: [] });
    expect(byName.get('gone')).toMatchObject({ failures: [{ job: 'poll-change-requests', count: 6 }] });
  });

  it("polls no more spaces at once, across a process's batches, than 2 per connection to the service", async () => {
    const { emulator, deps, mappings } = world;
    // One connection: two spaces at once at most, where two batches would poll 8 each.
    const { client: api } = testApiClient(emulator, emulator.tokens.admin, { extras: { connections: 1 } });
    let polling = 0;
    let most = 0;
    const listAll = api.changeRequests.listAll.bind(api.changeRequests);
    api.changeRequests.listAll = async function* (...args: Parameters<typeof listAll>) {
      polling += 1;
      most = Math.max(most, polling);
      try {
        // Long enough for every poll that could start to have started.
        await new Promise((resolve) => setTimeout(resolve, 20));
        yield* listAll(...args);
      } finally {
        polling -= 1;
      }
    };
    const { log } = captureLog('warn');
    const batch = (id: string) =>
      pollChangeRequestsJob.run(
        testJobContext({ ...deps, api }, { log, job: { id, name: 'poll-change-requests' } }),
        { mappings: mappings.filter(({ name }) => name !== 'gone').map(({ name }) => name) },
      );
    const results = await Promise.all([batch('batch-a'), batch('batch-b')]);
    expect(results).toEqual([
      expect.objectContaining({ mappings: SPACES, failed: 0 }),
      expect.objectContaining({ mappings: SPACES, failed: 0 }),
    ]);
    expect(most).toBe(2);
  });

  it('ends a batch on a service rate limit: the queue pauses, and no mapping counts it as a failure', async () => {
    const { emulator, config, deps, queues, spaces, lines } = world;
    const failedBefore = await pollsCounted('m1', 'failed');
    // A Retry-After longer than the client waits itself: the job's, so the runner pauses the queue.
    await setFaults(emulator, {
      forced: [
        {
          status: 429,
          retryAfterSeconds: 600,
          method: 'GET',
          path: `${spaces[1]}/change-requests$`,
          times: 1,
        },
      ],
    });
    const maintain = queues.get('maintain');
    const batch = await maintain.add('poll-change-requests', { mappings: spaces.map((_, i) => `m${i}`) });
    const paused = await waitFor(
      () => lines.find((line) => line.msg === 'service rate limit: queue paused' && line.job === batch.id),
      'the queue paused by the batch',
    );
    expect(paused).toMatchObject({ pauseMs: 600_000, result: 'rate-limited' });
    // Back to waiting for the end of the pause, not failed, not completed.
    expect(await maintain.getJobState(batch.id ?? '')).toMatch(/^(waiting|delayed|prioritized)$/);
    const statuses = await mappingStatuses(
      config,
      deps.stores.mappings,
      deps.stores.verdicts,
      deps.stores.links,
    );
    expect(statuses.find((status) => status.name === 'm1')).toMatchObject({ state: 'ok', failures: [] });
    expect(await pollsCounted('m1', 'failed')).toBe(failedBefore);
  });
});
