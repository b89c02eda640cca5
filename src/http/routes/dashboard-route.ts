// `/ui`: BullMQ's queues in bull-board, for operators who want to look at single jobs, their data,
// logs and errors. Read-only unless `http.dashboard.readOnly` is false (then jobs can be retried,
// promoted, cleaned and queues paused from it). Behind `http.token` like every other page. A retry
// from it is `docsync retry`'s (src/queue/retry-failed-job.ts): once per piece of work.
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FinishedStatus, Job, Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { QUEUE_NAMES } from '../../queue/queue-names.js';
import type { Queues } from '../../queue/queues.js';
import { retryFailedJob } from '../../queue/retry-failed-job.js';
import { DASHBOARD_PATH } from './dashboard-path.js';

export interface DashboardOptions {
  queues: Pick<Queues, 'get' | 'connection'>;
  readOnly: boolean;
}

type JobStatuses = Parameters<BullMQAdapter['getJobs']>[0];

/**
 * bull-board retries a job by calling the `retry` of the job its adapter gives (one job, or every
 * failed job of a queue at once): the jobs this adapter gives retry as `docsync retry` does, one at
 * a time, so that two failures of the same work never both run.
 */
class DocsyncQueueAdapter extends BullMQAdapter {
  readonly #queue: Queue;
  readonly #redis: DashboardOptions['queues']['connection'];
  #retries: Promise<unknown> = Promise.resolve();

  constructor(queue: Queue, redis: DashboardOptions['queues']['connection'], readOnly: boolean) {
    super(queue, { readOnlyMode: readOnly });
    this.#queue = queue;
    this.#redis = redis;
  }

  override async getJob(id: string): Promise<Job | undefined> {
    const job = await super.getJob(id);
    return job === undefined ? undefined : this.#retrying(job);
  }

  override async getJobs(statuses: JobStatuses, start?: number, end?: number): Promise<Job[]> {
    return (await super.getJobs(statuses, start, end)).map((job) => this.#retrying(job));
  }

  #retrying(job: Job): Job {
    const retry = job.retry.bind(job);
    job.retry = async (state?: FinishedStatus) => {
      const run = this.#retries.then(() =>
        retryFailedJob(this.#queue, job, {
          redis: this.#redis,
          retry,
          ...(state === undefined ? {} : { state }),
        }),
      );
      this.#retries = run.catch(() => undefined);
      await run;
    };
    return job;
  }
}

export async function registerDashboardRoute(
  server: FastifyInstance,
  options: DashboardOptions,
): Promise<void> {
  const adapter = new FastifyAdapter();
  adapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: QUEUE_NAMES.map(
      (name) =>
        new DocsyncQueueAdapter(options.queues.get(name), options.queues.connection, options.readOnly),
    ),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'docsync queues' } },
  });
  await server.register(adapter.registerPlugin(), { prefix: DASHBOARD_PATH });
}
