// One change request poll cycle over 1,000 spaces with 20 open change requests each, against the
// local service over HTTP, through BullMQ on a private redis-server: wall time, requests made (the
// target is one list request per space plus only the actions needed), and peak memory. Its baseline,
// in the same run: the same lists fetched all at once through the same client (the parallel-fetch
// floor, best of three). A cycle that queues link checks is compared with that floor plus a raw
// BullMQ addBulk of the same jobs per space, and one that reads reviews with that floor plus the
// same review reads at once (the fair floors). Target: the cycle within 1.5x its floor, and its peak
// RSS under 200 MB above the process's before it. Each cycle and each floor starts from a collected
// heap, so that the garbage of the one before is neither counted nor freed to its credit; the
// floor's peak is printed beside the cycle's. The steady cycle also shows the floor of one job per
// space: the same jobs through the same runner, each only listing.
// The local service runs as a process of its own (bench/service-process.ts): its CPU is not docsync's.
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { defineJob } from '../jobs/define-job.js';
import { pollChangeRequestsJob } from '../jobs/poll-change-requests/poll-change-requests-job.js';
import { pollChangeRequestsKind } from '../jobs/poll-change-requests/poll-change-requests-kind.js';
import { createDocsApiClient } from '../src/api/create-docs-api-client.js';
import type { Config } from '../src/config/config-schema.js';
import { parseConfig } from '../src/config/load-config.js';
import { createJobServices } from '../src/daemon/create-job-services.js';
import { runnerPorts } from '../src/daemon/runner-ports.js';
import type { Logger } from '../src/log/create-logger.js';
import { changeRequestPollSchedules } from '../src/producers/change-request-poll-schedules.js';
import type { AnyJobDefinition } from '../src/queue/job-definition.js';
import { jobId } from '../src/queue/job-id.js';
import { JobRunner } from '../src/queue/job-runner.js';
import { Queues } from '../src/queue/queues.js';
import { defaultJobOptions } from '../src/queue/retry-policy.js';
import { startEmbeddedRedis } from '../src/redis/embedded-redis-server.js';
import { RedisConnections } from '../src/redis/redis-connections.js';
import { redisStores } from '../src/state/redis-stores.js';
import { figure } from './figure-table.js';
import { collectGarbage, measureMemory } from './measure-memory.js';
import { productionLog } from './production-log.js';
import { type RequestCounts, startServiceProcess } from './service-process.js';
import { median, report } from './stats.js';

// DOCSYNC_POLL_SPACES=100 runs a smaller cycle (a machine shared with other work).
const SPACES = Number(process.env.DOCSYNC_POLL_SPACES ?? 1000);
// The workers' concurrency (queues.concurrency): how many poll jobs run at once in this process.
const CONCURRENCY = Number(process.env.DOCSYNC_POLL_CONCURRENCY ?? 16);
// DOCSYNC_POLL_VARIANTS=reviews (or steady, first, comma-separated) runs only those cycles.
const VARIANTS = process.env.DOCSYNC_POLL_VARIANTS?.split(',');
const VARIANT_KEYS = ['steady', 'first', 'reviews'];
for (const key of VARIANTS ?? [])
  if (!VARIANT_KEYS.includes(key))
    throw new Error(`DOCSYNC_POLL_VARIANTS: no cycle named ${key} (names: ${VARIANT_KEYS.join(', ')})`);
const CHANGE_REQUESTS = 20;
/** Rounds of each cycle beside its floor: the figure is the median of their ratios. */
const ROUNDS = 5;
const TARGET_RATIO = 1.5;
/** A cycle's peak RSS above the process's before it, from a collected heap. */
const TARGET_RSS_MB = 200;
const TOKEN = 'bench-admin-token';

/** Reads every page of a change request's reviews, as a poll judging merges does. */
async function readReviews(
  api: ReturnType<typeof createDocsApiClient>,
  space: string,
  changeRequest: string,
): Promise<void> {
  for await (const _ of api.changeRequests.listReviewsAll(space, changeRequest));
}

/**
 * The floor of a cycle that queues a link check per change request (one seeing them first): the
 * same lists at once, each space's jobs added with one raw BullMQ addBulk on a new queue. The jobs
 * are docsync's own as BullMQ stores them: the same ids, data and options (the queues' defaults of
 * `config`: attempts, backoff, bounded history; deduplication by the id), so that Redis does the same
 * work for both. What the floor leaves out is docsync's: the payload checks, the rerun rule's read,
 * the verdicts. With `reviews`, each listed change request's reviews are read at once too, before
 * its space's addBulk. Seconds.
 */
async function parallelFetchAndAddSeconds(
  api: ReturnType<typeof createDocsApiClient>,
  spaces: readonly string[],
  redisUrl: string,
  name: string,
  reviews: boolean,
  config: Config,
): Promise<number> {
  // A connection of its own, closed with the queue: raw BullMQ as a bare producer would use it.
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(name, {
    connection,
    prefix: 'floor',
    defaultJobOptions: defaultJobOptions(config.queues),
  });
  const started = performance.now();
  await Promise.all(
    spaces.map(async (space) => {
      const jobs = [];
      const reads: Promise<void>[] = [];
      for await (const cr of api.changeRequests.listAll(space, { status: 'open' })) {
        if (reviews) reads.push(readReviews(api, space, cr.id));
        const id = jobId('links', space, cr.id, cr.revision);
        jobs.push({
          name: 'check-links',
          data: { space, changeRequest: cr.id, revision: cr.revision, comment: true },
          opts: { jobId: id, deduplication: { id } },
        });
      }
      await Promise.all(reads);
      await queue.addBulk(jobs);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await queue.obliterate({ force: true });
  await queue.close();
  await connection.quit();
  return seconds;
}

/** Seconds to fetch every space's open change requests (every page) at once: the floor of a poll. */
async function parallelFetchSeconds(
  api: ReturnType<typeof createDocsApiClient>,
  spaces: readonly string[],
): Promise<number> {
  const started = performance.now();
  await Promise.all(
    spaces.map(async (space) => {
      let listed = 0;
      for await (const _ of api.changeRequests.listAll(space, { status: 'open' })) listed += 1;
      if (listed !== CHANGE_REQUESTS) throw new Error(`space ${space} listed ${listed} change requests`);
    }),
  );
  return (performance.now() - started) / 1000;
}

/**
 * A poll job that only lists its space's open change requests: the same jobs through the same
 * runner cost at least this, whatever the poll decides (the floor of one job per space).
 */
const listOnlyPollJob = defineJob(pollChangeRequestsKind, ['config', 'api'], {
  async run(ctx, payload) {
    const name = 'mapping' in payload ? payload.mapping : undefined;
    const mapping = ctx.config.mappings.find((item) => item.name === name);
    if (mapping === undefined || ctx.api === undefined) throw new Error(`no mapping ${name}`);
    let listed = 0;
    for await (const _ of ctx.api.changeRequests.listAll(mapping.space, {
      status: 'open',
      signal: ctx.signal,
    }))
      listed += 1;
    return { result: 'polled', managed: listed };
  },
});

export async function pollBench(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'docsync-bench-poll-'));
  const log = pino({ level: 'silent' });
  // docsync's logger at the production level, written as the daemon writes, where nobody reads it.
  const jobLog = productionLog();
  const redis = await startEmbeddedRedis({ dir: join(root, 'redis'), log });
  const service = await startServiceProcess(TOKEN);
  const { baseUrl } = service;
  const api = createDocsApiClient({ baseUrl, token: TOKEN, timeout: 30_000 }, { connections: 32 });
  // Stopped however the bench ends: the service is a process of its own, and must not outlive it.
  try {
    const spaces: string[] = [];
    /** Each space's change requests at their revisions, for the link checks a steady state has. */
    const changeRequestsOf = new Map<string, { id: string; revision: string }[]>();
    const setupStarted = performance.now();
    for (let i = 0; i < SPACES; i += 1) {
      const space = await api.spaces.create(service.orgId, { title: `Space ${i}` });
      spaces.push(space.id);
      const created = await Promise.all(
        Array.from({ length: CHANGE_REQUESTS }, (_, n) =>
          api.changeRequests.create(space.id, { subject: `Change ${n}` }),
        ),
      );
      changeRequestsOf.set(
        space.id,
        created.map((cr) => ({ id: cr.id, revision: cr.revision })),
      );
    }
    report('setup (spaces, change requests)', {
      spaces: SPACES,
      concurrency: CONCURRENCY,
      changeRequests: SPACES * CHANGE_REQUESTS,
      seconds: (performance.now() - setupStarted) / 1000,
    });

    // A steady cycle (every revision link-checked already: nothing to queue), the first cycle to see
    // the change requests (a link check queued for each), and one reading reviews for merge verdicts.
    for (const variant of [
      {
        key: 'steady',
        label: 'manage all, merge off, all checked',
        merge: '{ enabled: false }',
        checked: true,
        reviews: false,
      },
      {
        key: 'first',
        label: 'manage all, merge off, none checked',
        merge: '{ enabled: false }',
        checked: false,
        reviews: false,
      },
      {
        key: 'reviews',
        label: 'manage all, merge on (reviews read)',
        merge: '{ enabled: true, approvals: 1 }',
        checked: false,
        reviews: true,
      },
    ].filter((one) => VARIANTS === undefined || VARIANTS.includes(one.key))) {
      const mappings = spaces
        .map(
          (space, i) =>
            `  - { name: m${i}, space: ${space}, git: { repo: /unused/${i}, branch: main, dir: docs }, changeRequest: { manage: all }, merge: ${variant.merge} }`,
        )
        .join('\n');
      const configOf = (prefix: string) =>
        parseConfig(
          `dataDir: ${join(root, 'data')}\nredis: { url: "${redis.url}", prefix: ${prefix} }\nqueues: { concurrency: ${CONCURRENCY}, keepCompleted: { count: 100000 } }\nservice: { baseUrl: "${baseUrl}", token: ${TOKEN} }\nmappings:\n${mappings}\n`,
          'bench.yaml',
          {},
        );
      const config = configOf(`bench-${Date.now()}`);
      const floors: number[] = [];
      for (let run = 0; run < 3; run += 1) floors.push(await parallelFetchSeconds(api, spaces));
      const floor = Math.min(...floors);
      // The fair floor of the variant: what it cannot do without (the lists; the jobs it queues; the reviews it reads).
      const fairFloorName = variant.checked
        ? 'parallel fetch'
        : variant.reviews
          ? 'fetch, review reads and addBulk'
          : 'fetch and addBulk';
      const fairFloorSeconds = async (round: number) =>
        variant.checked
          ? parallelFetchSeconds(api, spaces)
          : parallelFetchAndAddSeconds(
              api,
              spaces,
              redis.url,
              `floor-${Date.now()}-${round}`,
              variant.reviews,
              config,
            );
      const runnerFloor = variant.checked
        ? await runCycle({
            definition: listOnlyPollJob,
            config: configOf(`bench-runner-floor-${Date.now()}`),
            redisUrl: redis.url,
            log,
            jobLog,
            api,
          })
        : undefined;
      if (variant.checked) {
        const connections = new RedisConnections({ url: redis.url }, log);
        const { links } = redisStores(connections.worker(), config.redis.prefix);
        const at = new Date().toISOString();
        for (const [space, crs] of changeRequestsOf)
          await Promise.all(
            crs.map((cr) => links.set(space, cr.id, { at, revision: cr.revision, broken: [] })),
          );
        await connections.close();
        // A steady cycle follows the one before it, as in a daemon: that one, uncounted, wrote the
        // verdicts the next ones find again (and warmed the process, as the floor's first runs do).
        await runCycle({ definition: pollChangeRequestsJob, config, redisUrl: redis.url, log, jobLog, api });
      }
      // Rounds of one cycle and its floor side by side, each first in every other round: the figure
      // is the median of their ratios, so that a noisy moment of the machine hurts both sides of a
      // round alike. A steady cycle polls the same state again; a first cycle polls a state of its
      // own each round (a new prefix), which has seen none of the change requests.
      const rounds: { cycle: CycleRun; floor: number; floorRssMb: number; requests: RequestCounts }[] = [];
      const measureFloor = async (round: number) => {
        const measured = await measureMemory(() => fairFloorSeconds(round), { collectFirst: true });
        return { floor: measured.value, floorRssMb: measured.rssAboveMiB };
      };
      for (let round = 0; round < ROUNDS; round += 1) {
        const measureCycle = async () => {
          await service.resetRequests();
          const cycle = await runCycle({
            definition: pollChangeRequestsJob,
            config: variant.checked ? config : configOf(`bench-${Date.now()}-${round}`),
            redisUrl: redis.url,
            log,
            jobLog,
            api,
          });
          return { cycle, requests: await service.requests() };
        };
        if (round % 2 === 0) {
          const floor = await measureFloor(round);
          rounds.push({ ...(await measureCycle()), ...floor });
        } else {
          const measured = await measureCycle();
          rounds.push({ ...measured, ...(await measureFloor(round)) });
        }
      }
      const fairRatios = rounds.map((one) => one.cycle.seconds / one.floor);
      const fairRatio = median(fairRatios);
      const fairFloor = median(rounds.map((one) => one.floor));
      // The round whose cycle took the median time speaks for the cycle's jobs and requests.
      const bySeconds = [...rounds].sort((a, b) => a.cycle.seconds - b.cycle.seconds);
      const middle = bySeconds[Math.floor(bySeconds.length / 2)];
      if (middle === undefined) throw new Error('no round of the cycle ran');
      const { cycle, requests: counts } = middle;
      const lists = counts.counts['GET /v1/spaces/:s/change-requests'] ?? 0;
      const { seconds } = cycle;
      const ratio = seconds / floor;
      report(`poll cycle, ${variant.label}`, {
        seconds,
        parallelFetchSeconds: floor,
        ratioToParallelFetch: ratio,
        ...(variant.checked
          ? {}
          : { [variant.reviews ? 'fetchReviewsAndAddSeconds' : 'fetchAndAddSeconds']: fairFloor }),
        ratio: fairRatio,
        ratios: fairRatios.map((value) => value.toFixed(2)).join(' '),
        cycleRuns: rounds.map((one) => one.cycle.seconds.toFixed(2)).join(' '),
        floorRuns: rounds.map((one) => one.floor.toFixed(2)).join(' '),
        target: TARGET_RATIO,
        met: fairRatio <= TARGET_RATIO ? 'yes' : 'no',
        ...(runnerFloor === undefined
          ? {}
          : { listOnlyJobsSeconds: runnerFloor.seconds, listOnlyJobsRatio: runnerFloor.seconds / floor }),
        jobP50Ms: cycle.jobMs.p50,
        jobP95Ms: cycle.jobMs.p95,
        jobP99Ms: cycle.jobMs.p99,
        failedJobs: cycle.failed,
      });
      figure({
        name: `poll cycle, ${SPACES} spaces x ${CHANGE_REQUESTS} change requests, ${variant.label} (s)`,
        docsync: seconds,
        baseline: fairFloor,
        ratio: fairRatio,
        target: `<= ${TARGET_RATIO}x ${fairFloorName}`,
        met: fairRatio <= TARGET_RATIO,
      });
      // The most of the rounds, each started from a collected heap (the floor's as well).
      const rssPeak = Math.max(...rounds.map((one) => one.cycle.rssPeakMb));
      const floorRssPeak = Math.max(...rounds.map((one) => one.floorRssMb));
      report(`poll cycle, ${variant.label}, requests`, {
        requests: counts.total,
        listRequests: lists,
        otherRequests: counts.total - lists,
        rssPeakAboveBaselineMb: rssPeak,
        floorRssPeakAboveBaselineMb: floorRssPeak,
      });
      figure({
        name: `poll cycle, ${variant.label}, peak RSS above a collected heap (MB)`,
        docsync: rssPeak,
        baseline: floorRssPeak,
        ratio: floorRssPeak > 0 ? rssPeak / floorRssPeak : Number.NaN,
        target: `<= ${TARGET_RSS_MB} MB`,
        met: rssPeak <= TARGET_RSS_MB,
      });
    }
    report('target', { ratioToParallelFetch: TARGET_RATIO, rssMb: TARGET_RSS_MB });
  } finally {
    jobLog.flush();
    await api.close();
    await service.stop();
    await redis.stop();
    await rm(root, { recursive: true, force: true });
  }
}

interface CycleOptions {
  definition: AnyJobDefinition;
  config: Config;
  redisUrl: string;
  log: Logger;
  jobLog: Logger;
  api: ReturnType<typeof createDocsApiClient>;
}

interface CycleRun {
  seconds: number;
  jobMs: { p50: number; p95: number; p99: number };
  failed: number;
  rssPeakMb: number;
}

/**
 * One poll job per mapping added at once, as their schedulers' ticks add them, run by a JobRunner
 * with `definition` until every one finished: seconds from the add to the last one's end.
 */
async function runCycle(options: CycleOptions): Promise<CycleRun> {
  const { config, jobLog } = options;
  const connections = new RedisConnections({ url: options.redisUrl }, options.log);
  const queues = new Queues(connections.producer(), config, options.log);
  const runner = new JobRunner({
    definitions: [options.definition],
    connection: connections.worker(),
    config,
    ...runnerPorts(
      createJobServices({ config, redis: connections.state(), queues, log: jobLog, api: options.api }),
    ),
    log: jobLog,
    stopSignal: new AbortController().signal,
  });
  const done = new EventEmitter();
  // From a collected heap, as its floor: what an earlier cycle left is not this one's.
  await collectGarbage();
  const rssBefore = process.memoryUsage.rss();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  }, 20);
  const maintain = queues.get('maintain');
  // Jobs of a cycle before this one on the same queue are not this cycle's.
  const before = await maintain.getJobCounts('completed', 'failed');
  const ended = (counts: typeof before) => (counts.completed ?? 0) + (counts.failed ?? 0);
  // The daemon's schedulers (batches of mappings), or one job per mapping for the list-only floor:
  // made before the cycle, as the daemon's are before their ticks.
  const payloads =
    options.definition === listOnlyPollJob
      ? config.mappings.map((mapping) => ({ mapping: mapping.name }))
      : changeRequestPollSchedules(config.mappings).map((scheduler) => scheduler.payload);
  const started = performance.now();
  const startedAt = Date.now();
  await maintain.addBulk(payloads.map((data) => ({ name: 'poll-change-requests', data })));
  runner.start();
  const finished = new Promise<void>((resolve) => done.once('all', resolve));
  const watch = setInterval(async () => {
    const counts = await maintain.getJobCounts('completed', 'failed');
    if (ended(counts) - ended(before) >= payloads.length) done.emit('all');
  }, 25);
  await finished;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(watch);
  clearInterval(sampler);
  // Each poll job's own time, from BullMQ's records of it.
  const jobs = (await maintain.getJobs(['completed', 'failed'], 0, -1)).filter(
    (job) => job.name === 'poll-change-requests' && (job.processedOn ?? 0) >= startedAt,
  );
  await runner.close();
  await queues.close();
  await connections.close();
  return {
    seconds,
    jobMs: summarizeAll(jobs.map((job) => (job.finishedOn ?? 0) - (job.processedOn ?? 0))),
    failed: jobs.filter((job) => job.failedReason !== undefined).length,
    rssPeakMb: (rssPeak - rssBefore) / 1024 / 1024,
  };
}

function summarizeAll(samplesMs: readonly number[]): { p50: number; p95: number; p99: number } {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}
