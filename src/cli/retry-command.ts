// `docsync retry`: runs failed jobs again now (BullMQ's job.retry()), those of one mapping, one job,
// or all of them, once per piece of work (src/queue/retry-failed-job.ts). It talks to the Redis the
// daemon uses, found as `docsync resume` finds it: the configured one, or the embedded one of a
// docsync running in the same data folder.
import { join, resolve } from 'node:path';
import { pino } from 'pino';
import type { Config } from '../config/config-schema.js';
import { createLogger } from '../log/create-logger.js';
import { findJobs, jobOfMapping, listFailedJobs, type QueuedJob } from '../queue/failed-jobs.js';
import { Queues } from '../queue/queues.js';
import { type RetryOutcome, retryFailedJob } from '../queue/retry-failed-job.js';
import { runningEmbeddedRedis } from '../redis/embedded-redis-server.js';
import { RedisConnections, type RedisTarget } from '../redis/redis-connections.js';
import { readRedisTarget } from '../redis/redis-target.js';
import { waitUntilReady } from '../redis/wait-until-ready.js';
import type { CliIo } from './cli-io.js';
import { EXIT } from './exit-codes.js';
import { lookUpMapping, settleLookup } from './find-mapping.js';
import { readCliConfig } from './read-cli-config.js';

export interface RetryFlags {
  config?: string;
  mapping?: string;
  job?: string;
  allFailed?: boolean;
}

/** Which failed jobs to run again: exactly one of the three flags. */
type Selection = { mapping: string } | { job: string } | { allFailed: true };

const USAGE =
  'docsync retry: give one of --mapping <name>, --job <id> or --all-failed, for example: docsync retry --all-failed -c docsync.yaml\n';

/** The longest failure reason printed beside a job: the dashboard and /status show the whole. */
const REASON_CHARS = 160;

function selectionOf(flags: RetryFlags): Selection | undefined {
  const chosen: Selection[] = [
    ...(flags.mapping === undefined ? [] : [{ mapping: flags.mapping }]),
    ...(flags.job === undefined ? [] : [{ job: flags.job }]),
    ...(flags.allFailed === true ? [{ allFailed: true as const }] : []),
  ];
  return chosen.length === 1 ? chosen[0] : undefined;
}

async function redisTarget(config: Config, io: CliIo): Promise<RedisTarget | undefined> {
  const configured = await readRedisTarget(config.redis, io.cwd);
  if (configured !== undefined) return configured;
  const url = await runningEmbeddedRedis(join(resolve(io.cwd, config.dataDir), 'redis'));
  return url === undefined ? undefined : { url };
}

export async function retryCommand(flags: RetryFlags, io: CliIo): Promise<number> {
  const selection = selectionOf(flags);
  if (selection === undefined) {
    io.stderr.write(USAGE);
    return EXIT.invalid;
  }
  const file = flags.config ?? io.env.DOCSYNC_CONFIG;
  if (file === undefined) {
    io.stderr.write('docsync retry: give the configuration with --config <file> or DOCSYNC_CONFIG\n');
    return EXIT.invalid;
  }
  const config = await readCliConfig(file, io);
  if (config === undefined) return EXIT.invalid;
  const lookup = 'mapping' in selection ? lookUpMapping(config, selection.mapping, file) : undefined;
  if (lookup !== undefined && 'problem' in lookup) {
    io.stderr.write(`docsync retry: ${lookup.problem}\n`);
    return EXIT.invalid;
  }
  const target = await redisTarget(config, io);
  if (target === undefined) {
    io.stderr.write(
      `docsync retry: no running docsync keeps its Redis in ${config.dataDir}: start docsync, or set REDIS_URL to the Redis it uses\n`,
    );
    return EXIT.invalid;
  }
  const log = createLogger({ level: 'warn', destination: pino.destination({ dest: 2, sync: true }) });
  const redis = new RedisConnections(target, log);
  const queues = new Queues(redis.producer(), config, log);
  try {
    await waitUntilReady(redis.producer(), redis.description, 5000);
    const found =
      lookup === undefined || !('mapping' in selection)
        ? undefined
        : await settleLookup(config, selection.mapping, lookup, redis.producer());
    if (found !== undefined && 'problem' in found) {
      io.stderr.write(`docsync retry: ${found.problem}\n`);
      return EXIT.invalid;
    }
    const mapping = found !== undefined && 'found' in found ? found.found : undefined;
    let jobs: QueuedJob[];
    if ('job' in selection) {
      const found = await findJobs(queues, selection.job);
      jobs = [];
      for (const entry of found) {
        const state = await entry.job.getState();
        if (state === 'failed') jobs.push(entry);
        else io.stderr.write(`docsync retry: job ${entry.queue}:${entry.job.id} is ${state}, not failed\n`);
      }
      if (found.length === 0)
        io.stderr.write(`docsync retry: no job ${selection.job} in any queue (give <queue>:<id> or an id)\n`);
    } else {
      jobs = await listFailedJobs(
        queues,
        mapping === undefined ? undefined : (job) => jobOfMapping(job, mapping),
      );
      if (jobs.length === 0)
        io.stderr.write(
          mapping === undefined
            ? 'docsync retry: no failed jobs in any queue\n'
            : `docsync retry: no failed jobs of mapping ${mapping.name} (space ${mapping.space})\n`,
        );
    }
    if (jobs.length === 0) return EXIT.failure;
    let retried = 0;
    for (const { queue, job } of jobs) {
      // Read before the retry, which clears it.
      const { failedReason } = job;
      const outcome = await retryFailedJob(queues.get(queue), job, { redis: redis.producer() });
      if (outcome.retried) retried += 1;
      io.stdout.write(`${describeOutcome(outcome, queue, job.id ?? '', job.name, failedReason)}\n`);
    }
    const skipped = jobs.length - retried;
    io.stdout.write(
      `${retried} failed ${retried === 1 ? 'job' : 'jobs'} retried${skipped === 0 ? '' : `, ${skipped} skipped`}\n`,
    );
    return EXIT.ok;
  } finally {
    await queues.close();
    await redis.close();
  }
}

function describeOutcome(
  outcome: RetryOutcome,
  queue: string,
  id: string,
  name: string,
  failedReason: string | undefined,
): string {
  if (outcome.retried) {
    const reason = (failedReason ?? '').split('\n')[0] ?? '';
    const shown = reason.length > REASON_CHARS ? `${reason.slice(0, REASON_CHARS - 1)}…` : reason;
    return `retried ${queue}:${id} (${name})${shown === '' ? '' : `, failed with: ${shown}`}`;
  }
  return outcome.reason === 'queued'
    ? `skipped ${queue}:${id} (${name}): the same work is queued as ${queue}:${outcome.as}`
    : `skipped ${queue}:${id} (${name}): no longer failed`;
}
