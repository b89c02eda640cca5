// A docsync worker process that takes one job holding a space and never finishes it: a test kills it
// with SIGKILL to strand the job, its BullMQ lock and its space lock, as a crash would. Run with
// `node --import tsx`; configured by REDIS_URL and DOCSYNC_PREFIX; logs JSON lines on stdout.
import { Redis } from 'ioredis';
import { z } from 'zod';
import { parseConfig } from '../../src/config/load-config.js';
import { createJobServices } from '../../src/daemon/create-job-services.js';
import { runnerPorts } from '../../src/daemon/runner-ports.js';
import { createLogger } from '../../src/log/create-logger.js';
import { JobRunner } from '../../src/queue/job-runner.js';
import { Queues } from '../../src/queue/queues.js';
import { testJob } from './test-job.js';

const config = parseConfig(
  `redis:\n  url: ${process.env.REDIS_URL}\n  prefix: ${process.env.DOCSYNC_PREFIX}\nlocks:\n  ttl: 10m\n`,
  'stranded.yaml',
  {},
);
const log = createLogger({ level: 'info' });
const connection = new Redis(config.redis.url ?? '', { maxRetriesPerRequest: null });
const queues = new Queues(connection, config, log);
const holdSpace = testJob({
  name: 'hold-space',
  queue: 'maintain',
  payload: z.object({ space: z.string() }),
  lockKey: (payload) => payload.space,
  async run(ctx) {
    ctx.log.info('holding the space until killed');
    return new Promise<never>(() => {});
  },
});
new JobRunner({
  definitions: [holdSpace],
  connection,
  config,
  ...runnerPorts(createJobServices({ config, redis: connection, queues, log })),
  log,
  stopSignal: new AbortController().signal,
}).start();
