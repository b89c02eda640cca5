// Adds the job of one piece of work (a kind's job id: src/queue/job-kind.ts), deduplicated only
// against a job of the same work that waits, is delayed or runs. A finished job of that work, failed
// or completed, never swallows it: the work is queued again under a rerun id (src/queue/job-id.ts),
// and the finished job stays for people to read; except while work that failed for good backs off
// (src/queue/work-back-off.ts): then nothing is added, and the producer gets the failed job. This
// is the one place where work a producer queues on every poll becomes a try. Producers in several
// processes may add the same work at once: BullMQ's deduplication, checked and set in one Lua
// script, keeps it to one job.
import type { Job, JobsOptions, Queue } from 'bullmq';
import { DocsyncError } from '../errors/docsync-error.js';
import { finishedJobs } from './bullmq-internals/finished-jobs.js';
import { rerunJobId } from './job-id.js';
import { backOffsLeft } from './work-back-offs.js';

/** The states of a job that has not finished: the same work queued meanwhile is this job. */
export const PENDING_STATES: ReadonlySet<string> = new Set([
  'waiting',
  'delayed',
  'active',
  'prioritized',
  'waiting-children',
]);

export interface Work {
  name: string;
  data: unknown;
  /** The work's id: the job id of its first run, and its deduplication id for every run. */
  workId: string;
  /** The options of the job (retention, delay, priority), without an id or a deduplication. */
  opts: Omit<JobsOptions, 'jobId' | 'deduplication'>;
}

/** How a work is added: under `jobId`, or not at all while it backs off (`failed`, its last failed job). */
type Choice = { jobId: string } | { failed: Job };

/**
 * The job ids to add the works under: each its own id, unless a job with that id has finished (then
 * a rerun id, or none while the work backs off and its failed job can be read). A job of the work
 * that is pending keeps it: adding under its id returns that job.
 */
async function chooseJobIds(queue: Queue, workIds: readonly string[], now: () => Date): Promise<Choice[]> {
  if (workIds.length === 0) return [];
  const finished = await finishedJobs(queue, workIds);
  const rerun = workIds.filter((_, index) => finished[index] === true);
  const backOffs = await backOffsLeft(queue, rerun, now());
  const waiting = new Map(
    await Promise.all(
      rerun.flatMap((id, index) => {
        const backOff = backOffs[index];
        if (backOff === undefined || backOff.leftMs === 0 || backOff.job === undefined) return [];
        return [Promise.all([id, queue.getJob(backOff.job)] as const)];
      }),
    ),
  );
  return workIds.map((id, index) => {
    const failed = waiting.get(id);
    if (failed !== undefined) return { failed };
    return { jobId: finished[index] === true ? rerunJobId(id, now()) : id };
  });
}

/**
 * BullMQ returns the job already there when the id exists (the first run, pending) or when the
 * deduplication id is held (a rerun, pending until it finishes): the work is one job either way.
 */
function jobOptions(work: Work, jobId: string): JobsOptions {
  return { ...work.opts, jobId, deduplication: { id: work.workId } };
}

export async function addWork(queue: Queue, work: Work, now: () => Date = () => new Date()): Promise<Job> {
  const [choice = { jobId: work.workId }] = await chooseJobIds(queue, [work.workId], now);
  if ('failed' in choice) return choice.failed;
  return queue.add(work.name, work.data, jobOptions(work, choice.jobId));
}

/**
 * Many pieces of work in one round trip of adds, after one of state reads (two ZMSCOREs, whatever
 * their number, and the back-offs of those finished), each as `addWork`.
 */
export async function addWorkBulk(
  queue: Queue,
  works: readonly Work[],
  now: () => Date = () => new Date(),
): Promise<Job[]> {
  const choices = await chooseJobIds(
    queue,
    works.map((work) => work.workId),
    now,
  );
  const adding = works.flatMap((work, index) => {
    const choice = choices[index] ?? { jobId: work.workId };
    return 'failed' in choice
      ? []
      : [{ name: work.name, data: work.data, opts: jobOptions(work, choice.jobId) }];
  });
  const added = adding.length === 0 ? [] : await queue.addBulk(adding);
  let next = 0;
  return choices.map((choice) => {
    if ('failed' in choice) return choice.failed;
    const job = added[next];
    next += 1;
    if (job === undefined) throw new DocsyncError('FAILED', 'BullMQ added fewer jobs than it was given');
    return job;
  });
}
