// A kind of job docsync queues, declared once beside its processor (jobs/<name>/<name>-kind.ts):
// its name, queue, payload schema, job id scheme, what its outcome counts toward, and retention.
// Producers and jobs queue through its handle, never by a string, so a bad payload fails where it
// is made, not later in a worker. The same work queued while its job
// waits or runs is that job; queued after it finished (failed, or completed), it runs again
// (src/queue/add-work.ts).
import type { Job, JobsOptions, Queue, RepeatOptions } from 'bullmq';
import type { z } from 'zod';
import { DocsyncError } from '../errors/docsync-error.js';
import { PayloadError } from '../errors/payload-error.js';
import { addWork, addWorkBulk, type Work } from './add-work.js';
import type { QueueName } from './queue-names.js';
import type { Queues } from './queues.js';
import type { WorkUnit } from './work-unit.js';

/**
 * How long BullMQ keeps a finished job: `true` removes it at once, a number keeps that many; what
 * a kind leaves out keeps the queue's default (src/queue/retry-policy.ts).
 */
export interface Retention {
  removeOnComplete?: NonNullable<JobsOptions['removeOnComplete']>;
  removeOnFail?: NonNullable<JobsOptions['removeOnFail']>;
}

/** What a producer chooses: when and how urgently. The name, queue, id and retention are the kind's. */
export interface EnqueueOptions {
  delay?: number;
  priority?: number;
  /**
   * BullMQ's deduplication, for a kind without a job id scheme (the working copy's debounce). A kind
   * with one deduplicates by its job id: giving both is refused.
   */
  deduplication?: NonNullable<JobsOptions['deduplication']>;
  /**
   * What asked for the job, when the same payload may rightly run again for a new reason (a push,
   * a resume, a new blob): the kind's id scheme makes it part of the job id.
   */
  reason?: string;
}

export interface JobKindSpec<P, I> {
  name: string;
  queue: QueueName;
  /** Checked when queuing (here) and again when running (the runner): the payload's one schema. */
  payload: z.ZodType<P, I>;
  /**
   * The job id (src/queue/job-id.ts), so that the same work queued while its job waits or runs is
   * that job; undefined leaves the id to BullMQ (every enqueue is a new job).
   */
  id: (payload: P, reason: string | undefined) => string | undefined;
  /**
   * What a run's outcome counts toward on /status and in the health states: the unit of work its
   * payload names (the runner records its failures and the success that ends them, one rule for
   * every kind), or undefined for a payload whose processor records its own units (a batch).
   * `false` for a kind whose outcomes must not count, with the reason in a comment beside it.
   */
  countsToward: ((payload: P) => WorkUnit | undefined) | false;
  /** For jobs queued through the handle; jobs of a scheduler keep the queue's defaults. */
  retention?: Retention | ((payload: P) => Retention | undefined);
}

/** Where a handle queues: docsync's queues, or the one queue of its kind (a narrow producer's). */
export type QueueTarget = Pick<Queues, 'get'> | Queue;

export interface JobKind<P, I = P> extends Readonly<JobKindSpec<P, I>> {
  /**
   * The BullMQ options the first run of a job of this kind is added with (its id, retention and the
   * producer's options), once the payload is checked: a PayloadError naming the job and the problem
   * if not. `enqueue` adds the deduplication by that id, and a rerun id when its job finished.
   */
  jobOptions(payload: I, options?: EnqueueOptions): JobsOptions;
  /**
   * Queues the work, or returns its job when one waits, is delayed or runs. A failed or completed
   * job of the same work does not stop it: it runs again under a rerun id.
   */
  enqueue(target: QueueTarget, payload: I, options?: EnqueueOptions): Promise<Job>;
  /** Many jobs in one round trip (BullMQ's addBulk), each checked as `enqueue` checks one. */
  enqueueBulk(target: QueueTarget, jobs: readonly { payload: I; options?: EnqueueOptions }[]): Promise<Job[]>;
  /** Creates or updates the job scheduler `schedulerId`, which queues this kind with `payload`. */
  schedule(
    target: QueueTarget,
    schedulerId: string,
    repeat: Omit<RepeatOptions, 'key'>,
    payload: I,
  ): Promise<void>;
}

/** A kind of any payload, as lists of kinds hold them. */
// biome-ignore lint/suspicious/noExplicitAny: the payload type is each kind's own; lists only read name, queue and schema
export type AnyJobKind = JobKind<any, any>;

export function defineJobKind<P, I = P>(spec: JobKindSpec<P, I>): JobKind<P, I> {
  const parse = (payload: I): P => {
    const parsed = spec.payload.safeParse(payload);
    if (!parsed.success) throw new PayloadError(spec.name, parsed.error);
    return parsed.data;
  };
  const queueOf = (target: QueueTarget): Queue => {
    if (!('add' in target)) return target.get(spec.queue);
    // A producer handed one queue: it must be this kind's, or the job would wait where no worker looks.
    if (target.name !== spec.queue)
      throw new DocsyncError(
        'JOB_WRONG_QUEUE',
        `job ${spec.name} belongs on queue ${spec.queue}, not ${target.name}: pass docsync's queues or the ${spec.queue} queue`,
      );
    return target;
  };
  const jobOptions = (payload: I, options: EnqueueOptions = {}): JobsOptions => {
    const parsed = parse(payload);
    const { reason, ...rest } = options;
    const id = spec.id(parsed, reason);
    const retention = typeof spec.retention === 'function' ? spec.retention(parsed) : spec.retention;
    return { ...rest, ...(id === undefined ? {} : { jobId: id }), ...retention };
  };
  /** The work a job with an id does, from its options; undefined for a kind (or payload) without one. */
  const workOf = (payload: I, options: JobsOptions): Work | undefined => {
    const { jobId, deduplication, ...opts } = options;
    if (jobId === undefined) return undefined;
    if (deduplication !== undefined)
      throw new DocsyncError(
        'FAILED',
        `job ${spec.name} is deduplicated by its job id: a producer gives it no deduplication of its own`,
      );
    return { name: spec.name, data: payload, workId: jobId, opts };
  };
  return {
    ...spec,
    jobOptions,
    // The payload is stored as the producer gave it (valid): the runner applies the schema's defaults.
    enqueue: async (target, payload, options) => {
      const queue = queueOf(target);
      const opts = jobOptions(payload, options);
      const work = workOf(payload, opts);
      return work === undefined ? queue.add(spec.name, payload, opts) : addWork(queue, work);
    },
    enqueueBulk: async (target, jobs) => {
      const queue = queueOf(target);
      const planned = jobs.map((job) => {
        const opts = jobOptions(job.payload, job.options);
        return { data: job.payload, opts, work: workOf(job.payload, opts) };
      });
      const works = planned.map((job) => job.work);
      if (works.every((work) => work !== undefined)) return addWorkBulk(queue, works);
      if (works.every((work) => work === undefined))
        return queue.addBulk(planned.map(({ data, opts }) => ({ name: spec.name, data, opts })));
      // A payload without an id among ones with (a working copy's import among commits): one by one.
      const added: Job[] = [];
      for (const { data, opts, work } of planned)
        added.push(work === undefined ? await queue.add(spec.name, data, opts) : await addWork(queue, work));
      return added;
    },
    schedule: async (target, schedulerId, repeat, payload) => {
      parse(payload);
      await queueOf(target).upsertJobScheduler(schedulerId, repeat, { name: spec.name, data: payload });
    },
  };
}
