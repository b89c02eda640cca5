// One change request poll cycle over 1,000 spaces with 20 open change requests each, against the
// local service over HTTP, through BullMQ on a private redis-server: wall time, requests made (the
// target is one list request per space plus only the actions needed), and peak memory.
// Target: under 5 s and 200 MB.
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { pollChangeRequestsJob } from '../jobs/poll-change-requests.js';
import { createDocsApiClient } from '../src/api/create-docs-api-client.js';
import { parseConfig } from '../src/config/load-config.js';
import { createJobDeps } from '../src/daemon/create-job-deps.js';
import { JobRunner } from '../src/queue/job-runner.js';
import { Queues } from '../src/queue/queues.js';
import { startEmbeddedRedis } from '../src/redis/embedded-redis-server.js';
import { RedisConnections } from '../src/redis/redis-connections.js';
import { BENCH_ADMIN_TOKEN, startBenchService } from './bench-service.js';
import { report } from './stats.js';

const SPACES = 1000;
const CHANGE_REQUESTS = 20;

export async function pollBench(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'docsync-bench-poll-'));
  const log = pino({ level: 'silent' });
  const redis = await startEmbeddedRedis({ dir: join(root, 'redis'), log });
  const { emulator, baseUrl, close } = await startBenchService({ log });
  const api = createDocsApiClient(
    { baseUrl, token: BENCH_ADMIN_TOKEN, timeout: 30_000 },
    { connections: 32 },
  );
  const spaces: string[] = [];
  const setupStarted = performance.now();
  for (let i = 0; i < SPACES; i += 1) {
    const space = await api.spaces.create(emulator.orgId, { title: `Space ${i}` });
    spaces.push(space.id);
    await Promise.all(
      Array.from({ length: CHANGE_REQUESTS }, (_, n) =>
        api.changeRequests.create(space.id, { subject: `Change ${n}` }),
      ),
    );
  }
  report('setup (spaces, change requests)', {
    spaces: SPACES,
    changeRequests: SPACES * CHANGE_REQUESTS,
    seconds: (performance.now() - setupStarted) / 1000,
  });

  for (const variant of [
    { label: 'manage all, merge off', merge: '{ enabled: false }' },
    { label: 'manage all, merge on (reviews read)', merge: '{ enabled: true, approvals: 1 }' },
  ]) {
    const mappings = spaces
      .map(
        (space, i) =>
          `  - { name: m${i}, space: ${space}, git: { repo: /unused/${i}, branch: main, dir: docs }, changeRequest: { manage: all }, merge: ${variant.merge} }`,
      )
      .join('\n');
    const config = parseConfig(
      `dataDir: ${join(root, 'data')}\nredis: { url: "${redis.url}", prefix: bench-${Date.now()} }\nqueues: { concurrency: 16 }\nservice: { baseUrl: "${baseUrl}", token: ${BENCH_ADMIN_TOKEN} }\nmappings:\n${mappings}\n`,
      'bench.yaml',
      {},
    );
    const connections = new RedisConnections({ url: redis.url }, log);
    const queues = new Queues(connections.producer(), config, log);
    const runner = new JobRunner({
      definitions: [pollChangeRequestsJob],
      connection: connections.worker(),
      config,
      deps: createJobDeps({ config, redis: connections.worker(), queues, log, api }),
      log,
      stopSignal: new AbortController().signal,
    });
    emulator.counter.reset();
    const done = new EventEmitter();
    let completed = 0;
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 20);
    const started = performance.now();
    await queues
      .get('maintain')
      .addBulk(
        config.mappings.map((mapping) => ({ name: 'poll-change-requests', data: { mapping: mapping.name } })),
      );
    const maintain = queues.get('maintain');
    runner.start();
    const finished = new Promise<void>((resolve) => done.once('all', resolve));
    const watch = setInterval(async () => {
      const counts = await maintain.getJobCounts('completed', 'failed');
      completed = (counts.completed ?? 0) + (counts.failed ?? 0);
      if (completed >= SPACES) done.emit('all');
    }, 25);
    await finished;
    const seconds = (performance.now() - started) / 1000;
    clearInterval(watch);
    clearInterval(sampler);
    const counts = emulator.counter.snapshot();
    const lists = counts.counts['GET /v1/spaces/:s/change-requests'] ?? 0;
    report(`poll cycle, ${variant.label}`, {
      seconds,
      requests: counts.total,
      listRequests: lists,
      otherRequests: counts.total - lists,
      rssPeakAboveBaselineMb: (rssPeak - rssBefore) / 1024 / 1024,
    });
    await runner.close();
    await queues.close();
    await connections.close();
  }
  report('target', { seconds: 5, rssMb: 200 });
  await api.close();
  await close();
  await redis.stop();
  await rm(root, { recursive: true, force: true });
}
