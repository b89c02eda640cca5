// The BullMQ queues docsync produces into, created once and shared by producers, jobs and status.
import { Queue } from 'bullmq';
import { closeAll } from '../lifecycle/close-all.js';
import type { Logger } from '../log/create-logger.js';
import { throttledErrorLog } from '../log/throttled-error-log.js';
import type { RedisClient } from '../redis/redis-connections.js';
import { QUEUE_NAMES, type QueueName } from './queue-names.js';
import type { QueueSettings, RedisKeySettings } from './queue-settings.js';
import { defaultJobOptions } from './retry-policy.js';

export type QueueCounts = Record<(typeof COUNTED)[number], number>;

const COUNTED = [
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'completed',
  'failed',
] as const;

export class Queues {
  readonly #queues: ReadonlyMap<QueueName, Queue>;
  /** The producer connection the queues share, for what BullMQ's API lacks (src/queue/retry-failed-job.ts). */
  readonly connection: RedisClient;
  #closing: Promise<void> | undefined;

  constructor(
    connection: RedisClient,
    config: { redis: RedisKeySettings; queues: QueueSettings },
    log: Logger,
  ) {
    this.connection = connection;
    const defaults = defaultJobOptions(config.queues);
    // The queues share one connection: its errors reach every queue, so they share one throttle.
    const onError = throttledErrorLog(log, 'queue error');
    this.#queues = new Map(
      QUEUE_NAMES.map((name) => {
        const queue = new Queue(name, {
          connection,
          prefix: config.redis.prefix,
          defaultJobOptions: defaults,
        });
        queue.on('error', onError);
        return [name, queue] as const;
      }),
    );
  }

  get(name: QueueName): Queue {
    const queue = this.#queues.get(name);
    if (queue === undefined) throw new Error(`unknown queue ${name}`);
    return queue;
  }

  /** Job counts by state, for every queue. */
  async counts(): Promise<Record<QueueName, QueueCounts>> {
    const entries = await Promise.all(
      QUEUE_NAMES.map(async (name) => {
        const counts = await this.get(name).getJobCounts(...COUNTED);
        return [
          name,
          Object.fromEntries(COUNTED.map((state) => [state, counts[state] ?? 0])) as QueueCounts,
        ] as const;
      }),
    );
    return Object.fromEntries(entries) as Record<QueueName, QueueCounts>;
  }

  close(): Promise<void> {
    this.#closing ??= closeAll([...this.#queues.values()].map((queue) => () => queue.close()));
    return this.#closing;
  }
}
