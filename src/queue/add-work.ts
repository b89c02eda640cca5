// Adds the job of one piece of work (a kind's job id: src/queue/job-kind.ts), deduplicated only
// against a job of the same work that waits, is delayed or runs. A finished job of that work, failed
// or completed, never swallows it: the work is queued again under a rerun id (src/queue/job-id.ts),
// and the finished job stays for people to read. Producers in several processes may add the same
// work at once: BullMQ's deduplication, checked and set in one Lua script, keeps it to one job.
import type { Job, JobsOptions, Queue } from 'bullmq';
import { rerunJobId } from './job-id.js';

/** The states of a job that has not finished: the same work queued meanwhile is this job. */
export const PENDING_STATES: ReadonlySet<string> = new Set([
  'waiting',
  'delayed',
  'active',
  'prioritized',
  'waiting-children',
]);

/** States after which the same work, queued again, runs again. */
const FINISHED_STATES: ReadonlySet<string> = new Set(['completed', 'failed']);

export interface Work {
  name: string;
  data: unknown;
  /** The work's id: the job id of its first run, and its deduplication id for every run. */
  workId: string;
  /** The options of the job (retention, delay, priority), without an id or a deduplication. */
  opts: Omit<JobsOptions, 'jobId' | 'deduplication'>;
}

/**
 * The job id to add the work under: its own id, unless a job with that id has finished (then a
 * rerun id). A job of the work that is pending keeps it: adding under its id returns that job.
 */
async function chooseJobId(queue: Queue, workId: string, now: () => Date): Promise<string> {
  const state = await queue.getJobState(workId);
  return FINISHED_STATES.has(state) ? rerunJobId(workId, now()) : workId;
}

/**
 * BullMQ returns the job already there when the id exists (the first run, pending) or when the
 * deduplication id is held (a rerun, pending until it finishes): the work is one job either way.
 */
function jobOptions(work: Work, jobId: string): JobsOptions {
  return { ...work.opts, jobId, deduplication: { id: work.workId } };
}

export async function addWork(queue: Queue, work: Work, now: () => Date = () => new Date()): Promise<Job> {
  const jobId = await chooseJobId(queue, work.workId, now);
  return queue.add(work.name, work.data, jobOptions(work, jobId));
}

/** Many pieces of work in one round trip of adds (after one of state reads), each as `addWork`. */
export async function addWorkBulk(
  queue: Queue,
  works: readonly Work[],
  now: () => Date = () => new Date(),
): Promise<Job[]> {
  const ids = await Promise.all(works.map((work) => chooseJobId(queue, work.workId, now)));
  return queue.addBulk(
    works.map((work, index) => ({
      name: work.name,
      data: work.data,
      opts: jobOptions(work, ids[index] ?? work.workId),
    })),
  );
}
