// One change request poll of a space with many change requests, run against the emulator over HTTP
// and the private Redis: it queues each job the policy asks for exactly once, under the ids and with
// the payloads of one-by-one queuing, records every verdict, and reads docsync's state in a number
// of Redis commands that does not grow with the number of change requests (watched with MONITOR).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobServices } from '../../../jobs/job-services.js';
import { pollChangeRequestsJob } from '../../../jobs/poll-change-requests/poll-change-requests-job.js';
import type { ChangeRequest } from '../../../src/api/schemas/change-request-schema.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { createJobServices } from '../../../src/daemon/create-job-services.js';
import { jobId } from '../../../src/queue/job-id.js';
import { Queues } from '../../../src/queue/queues.js';
import { monitorRedis } from '../../support/monitor-redis.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { testJobContext } from '../../support/test-job-context.js';
import { waitFor } from '../../support/wait-for.js';

interface QueuedJob {
  name: string;
  id: string;
  data: unknown;
}

const prefix = uniquePrefix('poll-batched');
const redis = testRedis(prefix);
let world: Awaited<ReturnType<typeof setUp>>;

/** A space with `outdated` change requests behind its main content and `fresh` ones on top of it. */
async function seedSpace(
  emulator: Awaited<ReturnType<typeof startTestEmulator>>,
  outdated: number,
  fresh: number,
) {
  const space = await createTestSpace(emulator, `Docs ${outdated + fresh}`);
  const url = `${emulator.baseUrl}/spaces/${space}/change-requests`;
  const create = (subject: string) =>
    callApi<{ id: string }>(url, emulator.tokens.admin, 'POST', { subject }).then((answer) => answer.body.id);
  for (let i = 0; i < outdated; i += 1) await create(`Old ${i}`);
  // Another change request merged: the main content moves, the ones before it are outdated.
  const other = await create('someone else');
  await callApi(`${url}/${other}/merge`, emulator.tokens.reviewer, 'POST');
  for (let i = 0; i < fresh; i += 1) await create(`New ${i}`);
  return space;
}

async function setUp() {
  const emulator = await startTestEmulator();
  const small = await seedSpace(emulator, 2, 2);
  const large = await seedSpace(emulator, 20, 20);
  const config = parseConfig(
    `redis: { url: "${redisUrl()}", prefix: ${prefix} }
service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }
mappings:
${[small, large]
  .map(
    (space, i) =>
      `  - { name: m${i}, space: ${space}, git: { repo: https://example.invalid/${i}.git, branch: main }, changeRequest: { manage: all, autoUpdate: always }, merge: { enabled: true, approvals: 0, noBrokenLinks: true } }`,
  )
  .join('\n')}
`,
    'test.yaml',
    {},
  );
  const { log } = captureLog('warn');
  const queues = new Queues(redis, config, log);
  const api = testApiClient(emulator).client;
  const deps = createJobServices({ config, redis, queues, log, api });
  afterAll(() => queues.close());
  const listed = async (space: string) => {
    const crs: ChangeRequest[] = [];
    for await (const cr of api.changeRequests.listAll(space, { status: 'open' })) crs.push(cr);
    return crs;
  };
  return { emulator, small, large, deps, queues, listed };
}

/** The context the runner gives a poll job, over the services a daemon builds. */
function contextOf(services: JobServices) {
  return testJobContext(services, { job: { id: 'poll-1', name: 'poll-change-requests' } });
}

/** Every Redis command on docsync's state keys while `work` runs, from a MONITOR connection. */
async function stateCommands(work: () => Promise<unknown>): Promise<string[][]> {
  const monitor = await monitorRedis(redis);
  const seen: string[][] = [];
  const sentinel = `${prefix}:sentinel:${Math.random()}`;
  let done = false;
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (args[1] === sentinel) done = true;
    else if (args.slice(1).some((arg) => arg.startsWith(`${prefix}:state:`))) seen.push(args);
  });
  try {
    await work();
    // MONITOR streams in order: once the sentinel shows, every command of the work has.
    await redis.get(sentinel);
    await waitFor(async () => done || undefined, 'the sentinel command');
  } finally {
    monitor.disconnect();
  }
  return seen;
}

async function waitingJobs(queues: Queues, queue: 'maintain' | 'links'): Promise<QueuedJob[]> {
  const jobs = await queues.get(queue).getJobs(['waiting', 'prioritized', 'delayed']);
  return jobs
    .map((job) => ({ name: job.name, id: job.id ?? '', data: job.data as unknown }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** What one-by-one queuing queued for these change requests (ids from the kinds' id scheme). */
function expectedJobs(
  mapping: string,
  space: string,
  crs: ChangeRequest[],
  checked: Set<string>,
  comment: boolean,
) {
  const maintain: QueuedJob[] = [];
  const links: QueuedJob[] = [];
  for (const cr of crs) {
    const payload = { mapping, space, changeRequest: cr.id, revision: cr.revision };
    if (cr.outdated)
      maintain.push({
        name: 'update-change-request',
        id: jobId('update', space, cr.id, cr.revision),
        data: payload,
      });
    // approvals 0, no broken links: mergeable once checked, and when only outdated (autoUpdate always).
    if (checked.has(cr.id))
      maintain.push({
        name: 'merge-change-request',
        id: jobId('merge', space, cr.id, cr.revision),
        data: payload,
      });
    else
      links.push({
        name: 'check-links',
        id: jobId('links', space, cr.id, cr.revision),
        data: { space, changeRequest: cr.id, revision: cr.revision, comment },
      });
  }
  const byId = (a: QueuedJob, b: QueuedJob) => a.id.localeCompare(b.id);
  return { maintain: maintain.sort(byId), links: links.sort(byId) };
}

describe('a poll of a space with many change requests', () => {
  beforeAll(async () => {
    world = await setUp();
  });

  it('queues the jobs it used to queue one by one, once each, and records every verdict', async () => {
    const { large, deps, queues, listed } = world;
    const crs = await listed(large);
    expect(crs).toHaveLength(40);
    expect(crs.filter((cr) => cr.outdated)).toHaveLength(20);
    // Half of them already link-checked at their revision, clean.
    const checked = new Set(crs.filter((_, i) => i % 2 === 0).map((cr) => cr.id));
    for (const cr of crs)
      if (checked.has(cr.id))
        await deps.stores.links.set(large, cr.id, {
          at: new Date().toISOString(),
          revision: cr.revision,
          broken: [],
        });

    const result = await pollChangeRequestsJob.run(contextOf(deps), { mapping: 'm1' });
    const comment = deps.config.mappings[1]?.links.comment ?? false;
    const expected = expectedJobs('m1', large, crs, checked, comment);
    expect(result).toEqual({
      result: 'polled',
      managed: 40,
      updates: 20,
      merges: expected.maintain.filter((job) => job.name === 'merge-change-request').length,
    });
    expect(await waitingJobs(queues, 'maintain')).toEqual(expected.maintain);
    expect(await waitingJobs(queues, 'links')).toEqual(expected.links);
    expect(expected.links).toHaveLength(20);

    // Polled again while they wait: the same jobs, none added.
    await pollChangeRequestsJob.run(contextOf(deps), { mapping: 'm1' });
    expect(await waitingJobs(queues, 'maintain')).toEqual(expected.maintain);
    expect(await waitingJobs(queues, 'links')).toEqual(expected.links);

    const verdicts = await deps.stores.verdicts.list('m1');
    expect(verdicts).toHaveLength(40);
    for (const cr of crs) {
      const reasons = [
        ...(cr.outdated ? ['outdated'] : []),
        ...(checked.has(cr.id) ? [] : ['links not checked yet']),
      ];
      expect(verdicts.find((verdict) => verdict.changeRequest === cr.id)).toMatchObject({
        number: cr.number,
        revision: cr.revision,
        mergeable: reasons.length === 0,
        reasons,
      });
    }
  });

  it('reads docsync state in as many Redis commands for 4 change requests as for 40', async () => {
    const { deps, listed } = world;
    // Each change request link-checked at its revision, and each space polled once since, as in a
    // daemon that runs for a while.
    const at = new Date().toISOString();
    for (const space of [world.small, world.large])
      for (const cr of await listed(space))
        await deps.stores.links.set(space, cr.id, { at, revision: cr.revision, broken: [] });
    for (const mapping of ['m0', 'm1']) await pollChangeRequestsJob.run(contextOf(deps), { mapping });
    const small = await stateCommands(() => pollChangeRequestsJob.run(contextOf(deps), { mapping: 'm0' }));
    const large = await stateCommands(() => pollChangeRequestsJob.run(contextOf(deps), { mapping: 'm1' }));
    expect(large.length).toBe(small.length);
    // Verdicts found again are confirmed, never written whole again.
    for (const commands of [small, large])
      expect(commands.map((args) => args[0]?.toLowerCase())).not.toContain('del');
    // The link checks of all its change requests in one MGET, never one GET each: of their short
    // records (revision and broken link count), the records themselves only where none is kept.
    for (const commands of [small, large]) {
      const linkReads = commands.filter((args) => args[1]?.startsWith(`${prefix}:state:links`));
      expect(linkReads.map((args) => args[0]?.toLowerCase())).toEqual(['mget']);
      expect(linkReads[0]?.[1]).toMatch(new RegExp(`^${prefix}:state:links-checked:`));
    }
    expect(large.find((args) => args[0]?.toLowerCase() === 'mget')).toHaveLength(41);
  });
});
