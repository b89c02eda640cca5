// docsync's queues for unit tests of processors: every job a kind adds is kept in order (queue,
// name, payload, options) instead of going to Redis. A kind's enqueue reads, for work with a job id,
// whether a job of that id finished (src/queue/bullmq-internals/finished-jobs.ts): here none ever
// did, so each job is added under its own id, as on a fresh Redis.
import type { Job, JobsOptions, Queue } from 'bullmq';
import { QUEUE_NAMES, type QueueName } from '../../src/queue/queue-names.js';
import type { Queues } from '../../src/queue/queues.js';

export interface AddedJob {
  queue: QueueName;
  name: string;
  data: unknown;
  opts: JobsOptions;
}

/** The parts of a BullMQ queue that adding a job reads. */
type AddingQueue = Pick<Queue, 'name' | 'opts' | 'toKey' | 'getBackend' | 'add'>;

function recordingQueue(name: QueueName, added: AddedJob[]): Queue {
  const fake = {
    name,
    opts: {} as Queue['opts'],
    toKey: (type: string) => `test:${name}:${type}`,
    // No finished job of any id: the first run of every work.
    getBackend: () => ({ client: Promise.resolve({ zscore: async () => null }) }),
    add: async (jobName: string, data: unknown, opts: JobsOptions = {}) => {
      added.push({ queue: name, name: jobName, data, opts });
      return { id: opts.jobId, name: jobName, data, opts } as Job;
    },
  };
  return fake as unknown as AddingQueue as Queue;
}

export function recordingQueues(): { queues: Queues; added: AddedJob[] } {
  const added: AddedJob[] = [];
  const byName = new Map(QUEUE_NAMES.map((name) => [name, recordingQueue(name, added)] as const));
  const get = (name: QueueName): Queue => {
    const queue = byName.get(name);
    if (queue === undefined) throw new Error(`unknown queue ${name}`);
    return queue;
  };
  return { queues: { get } as Pick<Queues, 'get'> as Queues, added };
}
