// The change request poll's own decisions, with its services faked: what a batch records for each of
// its mappings (a failure, the end of a run of failures, nothing for a clean poll), that one
// mapping's failure does not stop the others, and that a rate limit ends the batch as the job's own
// failure. What the judged change requests queue (updates, merges, link checks) is the judge's and
// the queues', run against the emulator and Redis in test/integration/upkeep/.
import { describe, expect, it } from 'vitest';
import {
  type PollChangeRequestsServices,
  pollChangeRequestsJob,
} from '../../../jobs/poll-change-requests/poll-change-requests-job.js';
import { ApiError } from '../../../src/api/api-error.js';
import type { DocsApiClient } from '../../../src/api/docs-api-client.js';
import type { ChangeRequest } from '../../../src/api/schemas/change-request-schema.js';
import { parseConfig } from '../../../src/config/load-config.js';
import type { DocsyncMetrics } from '../../../src/metrics/docsync-metrics.js';
import type { Queues } from '../../../src/queue/queues.js';
import { failureOf } from '../../../src/state/failure-of.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { fakeJobRun } from '../../support/fake-job-run.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const NAMES = ['alpha', 'broken', 'gamma', 'delta', 'epsilon'] as const;

const config = parseConfig(
  JSON.stringify({
    service: { baseUrl: 'https://docs.example.com/v1', token: 't' },
    mappings: NAMES.map((name) => ({
      name,
      space: `spc_${name}`,
      git: { repo: `./${name}`, branch: 'main' },
      changeRequest: { manage: 'all' },
    })),
  }),
  'docsync.yaml',
  {},
);

function changeRequest(id: string, revision: string): ChangeRequest {
  return {
    object: 'change-request',
    id,
    number: 3,
    status: 'open',
    subject: 'docs: setup (abc1234)',
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
    revision,
    revisionInitial: 'rev-0',
    comments: 0,
    outdated: false,
  };
}

/**
 * The service's open change requests per space; a space in `failing` answers its error. Each list
 * waits a turn of the event loop first, as a request does, so that a failure elsewhere is handled
 * before it ends.
 */
function fakeApi(open: Record<string, ChangeRequest[]>, failing: Record<string, Error> = {}) {
  const listed: string[] = [];
  const api = {
    connections: 1,
    changeRequests: {
      async *listAll(space: string) {
        listed.push(space);
        const error = failing[space];
        if (error !== undefined) throw error;
        await new Promise((resolve) => setImmediate(resolve));
        yield* open[space] ?? [];
      },
      get: async () => {
        throw new Error('no draft is kept in these tests');
      },
    },
  };
  return { api: api as unknown as DocsApiClient, listed };
}

function services(api: DocsApiClient, overrides: Partial<PollChangeRequestsServices> = {}) {
  const polls: { mapping: string; result: string }[] = [];
  const metrics = {
    changeRequestPoll: (mapping: string, result: string) => polls.push({ mapping, result }),
  } as Pick<DocsyncMetrics, 'changeRequestPoll'> as DocsyncMetrics;
  const svc: PollChangeRequestsServices = {
    config,
    api,
    stores: memoryStores(() => NOW),
    // Nothing in these polls needs an update, a merge or a link check.
    queues: {
      get: () => {
        throw new Error('this poll must queue nothing');
      },
    } as Pick<Queues, 'get'> as Queues,
    now: () => NOW,
    dryRun: false,
    metrics,
    ...overrides,
  };
  return { svc, polls };
}

const run = () => fakeJobRun({ name: 'poll-change-requests', queue: 'maintain' });

const notFound = (space: string) =>
  new ApiError({
    code: 'API_HTTP_ERROR',
    status: 404,
    method: 'GET',
    path: `/spaces/${space}/change-requests`,
    message: `GET /spaces/${space}/change-requests: 404`,
  });

const rateLimited = () =>
  new ApiError({
    code: 'API_HTTP_ERROR',
    status: 429,
    method: 'GET',
    path: '/spaces/spc_alpha/change-requests',
    message: 'GET /spaces/spc_alpha/change-requests: 429',
    retryable: true,
    retryAfterMs: 2000,
  });

describe('poll-change-requests job, a batch', () => {
  it("records the failing mapping's failure and polls the others", async () => {
    const error = notFound('spc_broken');
    const { api, listed } = fakeApi({}, { spc_broken: error });
    const { svc, polls } = services(api);
    const job = run();
    const result = await pollChangeRequestsJob.run(
      { ...svc, ...job.run },
      { mappings: ['alpha', 'broken', 'gamma'] },
    );
    expect(result).toMatchObject({ result: 'polled', mappings: 3, failed: 1 });
    expect(listed.sort()).toEqual(['spc_alpha', 'spc_broken', 'spc_gamma']);
    expect(job.outcomes).toEqual([{ unit: { mapping: 'broken' }, outcome: { failed: error } }]);
    expect(polls).toEqual(
      expect.arrayContaining([
        { mapping: 'alpha', result: 'polled' },
        { mapping: 'broken', result: 'failed' },
        { mapping: 'gamma', result: 'polled' },
      ]),
    );
  });

  it('ends the run of failures only of a mapping whose state had one', async () => {
    const { api } = fakeApi({});
    const { svc } = services(api);
    await svc.stores.mappings.recordFailure(
      'alpha',
      'poll-change-requests',
      failureOf(notFound('spc_alpha'), NOW),
    );
    // Another job's failures are not this one's to end.
    await svc.stores.mappings.recordFailure('gamma', 'import-content', failureOf(new Error('x'), NOW));
    const job = run();
    await pollChangeRequestsJob.run({ ...svc, ...job.run }, { mappings: ['alpha', 'gamma'] });
    expect(job.outcomes).toEqual([{ unit: { mapping: 'alpha' }, outcome: { succeeded: true } }]);
  });

  it('goes on when an outcome cannot be recorded', async () => {
    const { api } = fakeApi({}, { spc_broken: notFound('spc_broken') });
    const { svc } = services(api);
    const job = run();
    const result = await pollChangeRequestsJob.run(
      {
        ...svc,
        ...job.run,
        recordOutcome: async () => {
          throw new Error('redis went away');
        },
      },
      { mappings: ['broken', 'gamma'] },
    );
    expect(result).toMatchObject({ result: 'polled', mappings: 2, failed: 1 });
  });

  it('stops on a rate limit: no mapping starts after it, none records it, the job fails with it', async () => {
    const error = rateLimited();
    const { api, listed } = fakeApi({}, { spc_alpha: error });
    const { svc, polls } = services(api);
    const job = run();
    await expect(pollChangeRequestsJob.run({ ...svc, ...job.run }, { mappings: [...NAMES] })).rejects.toBe(
      error,
    );
    // One connection, two polls at once: alpha's turn passes to the next at once, the last two get
    // theirs only when a poll that started before the stop ends, after it.
    expect(listed).not.toContain('spc_delta');
    expect(listed).not.toContain('spc_epsilon');
    expect(job.outcomes).toEqual([]);
    expect(polls).not.toContainEqual({ mapping: 'alpha', result: 'failed' });
  });

  it("keeps each mapping's verdicts for /status, and writes none in a dry run", async () => {
    const open = { spc_alpha: [changeRequest('cr_1', 'rev-2')] };
    const live = services(fakeApi(open).api);
    // The revision was checked already: no link check to queue.
    await live.svc.stores.links.set('spc_alpha', 'cr_1', {
      at: NOW.toISOString(),
      revision: 'rev-2',
      broken: [],
      stats: { total: 1, broken: { total: 0 } },
    });
    await pollChangeRequestsJob.run({ ...live.svc, ...run().run }, { mappings: ['alpha'] });
    expect(await live.svc.stores.verdicts.list('alpha')).toEqual([
      expect.objectContaining({
        changeRequest: 'cr_1',
        revision: 'rev-2',
        mergeable: false,
        at: NOW.toISOString(),
      }),
    ]);

    const dry = services(fakeApi(open).api, { dryRun: true });
    await dry.svc.stores.links.set('spc_alpha', 'cr_1', {
      at: NOW.toISOString(),
      revision: 'rev-2',
      broken: [],
      stats: { total: 1, broken: { total: 0 } },
    });
    const result = await pollChangeRequestsJob.run({ ...dry.svc, ...run().run }, { mappings: ['alpha'] });
    expect(result).toMatchObject({ result: 'polled', managed: 1 });
    expect(await dry.svc.stores.verdicts.list('alpha')).toEqual([]);
  });
});

describe('poll-change-requests job, one mapping', () => {
  it("records nothing itself: its mapping is the kind's unit, which the runner records", async () => {
    const error = notFound('spc_broken');
    const { svc, polls } = services(fakeApi({}, { spc_broken: error }).api);
    const job = run();
    await expect(pollChangeRequestsJob.run({ ...svc, ...job.run }, { mapping: 'broken' })).rejects.toBe(
      error,
    );
    expect(job.outcomes).toEqual([]);
    expect(polls).toEqual([{ mapping: 'broken', result: 'failed' }]);
    const { countsToward } = pollChangeRequestsJob;
    expect(countsToward === false ? undefined : countsToward({ mapping: 'broken' })).toEqual({
      mapping: 'broken',
    });
    expect(countsToward === false ? undefined : countsToward({ mappings: ['broken'] })).toBeUndefined();
  });

  it('does not count a rate limit as a failed poll', async () => {
    const error = rateLimited();
    const { svc, polls } = services(fakeApi({}, { spc_alpha: error }).api);
    await expect(pollChangeRequestsJob.run({ ...svc, ...run().run }, { mapping: 'alpha' })).rejects.toBe(
      error,
    );
    expect(polls).toEqual([]);
  });

  it('fails as MAPPING_UNKNOWN for a mapping gone from the configuration, uncounted in /metrics', async () => {
    const { svc, polls } = services(fakeApi({}).api);
    await expect(
      pollChangeRequestsJob.run({ ...svc, ...run().run }, { mapping: 'gone' }),
    ).rejects.toMatchObject({ code: 'MAPPING_UNKNOWN' });
    expect(polls).toEqual([]);
  });

  it('names the services it is handed', () => {
    expect(pollChangeRequestsJob.needs).toEqual([
      'config',
      'api',
      'stores',
      'queues',
      'now',
      'dryRun',
      'metrics',
    ]);
  });
});
