// Adds the job of one piece of work (a kind's job id: src/queue/job-kind.ts), deduplicated only
// against a job of the same work that waits, is delayed or runs. A finished job of that work, failed
// or completed, never swallows it: the work is queued again under a rerun id (src/queue/job-id.ts),
// and the finished job stays for people to read. Producers in several processes may add the same
// work at once: BullMQ's deduplication, checked and set in one Lua script, keeps it to one job.
import type { Job, JobsOptions, Queue } from 'bullmq';
import { Cluster, Redis } from 'ioredis';
import { rerunJobId } from './job-id.js';

/** The states of a job that has not finished: the same work queued meanwhile is this job. */
export const PENDING_STATES: ReadonlySet<string> = new Set([
  'waiting',
  'delayed',
  'active',
  'prioritized',
  'waiting-children',
]);

/** The states after which the same work, queued again, runs again: each a sorted set of the queue. */
const FINISHED_STATES = ['completed', 'failed'] as const;

export interface Work {
  name: string;
  data: unknown;
  /** The work's id: the job id of its first run, and its deduplication id for every run. */
  workId: string;
  /** The options of the job (retention, delay, priority), without an id or a deduplication. */
  opts: Omit<JobsOptions, 'jobId' | 'deduplication'>;
}

/**
 * Which of the work ids have a finished job (completed or failed): the states BullMQ's getJobState
 * tries first, read from their sorted sets in one ZMSCORE each for any number of ids. getJobState
 * would go on, for a new id, to scan the queue's wait and active lists (LPOS, linear in the jobs
 * waiting), once per id.
 */
async function finishedOf(queue: Queue, workIds: readonly string[]): Promise<boolean[]> {
  const { connection } = queue.opts;
  if (connection instanceof Redis || connection instanceof Cluster) {
    const scores = await Promise.all(
      FINISHED_STATES.map((state) => connection.zmscore(queue.toKey(state), ...workIds)),
    );
    return workIds.map((_, index) => scores.some((of) => of[index] !== null));
  }
  // A queue given connection options instead of a client: the client BullMQ made for it.
  const client = await queue.getBackend().client;
  return Promise.all(
    workIds.map(async (id) => {
      const scores = await Promise.all(FINISHED_STATES.map((state) => client.zscore(queue.toKey(state), id)));
      return scores.some((score) => score !== null);
    }),
  );
}

/**
 * The job ids to add the works under: each its own id, unless a job with that id has finished (then
 * a rerun id). A job of the work that is pending keeps it: adding under its id returns that job.
 */
async function chooseJobIds(queue: Queue, workIds: readonly string[], now: () => Date): Promise<string[]> {
  if (workIds.length === 0) return [];
  const finished = await finishedOf(queue, workIds);
  return workIds.map((id, index) => (finished[index] === true ? rerunJobId(id, now()) : id));
}

/**
 * BullMQ returns the job already there when the id exists (the first run, pending) or when the
 * deduplication id is held (a rerun, pending until it finishes): the work is one job either way.
 */
function jobOptions(work: Work, jobId: string): JobsOptions {
  return { ...work.opts, jobId, deduplication: { id: work.workId } };
}

export async function addWork(queue: Queue, work: Work, now: () => Date = () => new Date()): Promise<Job> {
  const [jobId = work.workId] = await chooseJobIds(queue, [work.workId], now);
  return queue.add(work.name, work.data, jobOptions(work, jobId));
}

/**
 * Many pieces of work in one round trip of adds, after one of state reads (two ZMSCOREs, whatever
 * their number), each as `addWork`.
 */
export async function addWorkBulk(
  queue: Queue,
  works: readonly Work[],
  now: () => Date = () => new Date(),
): Promise<Job[]> {
  const ids = await chooseJobIds(
    queue,
    works.map((work) => work.workId),
    now,
  );
  return queue.addBulk(
    works.map((work, index) => ({
      name: work.name,
      data: work.data,
      opts: jobOptions(work, ids[index] ?? work.workId),
    })),
  );
}
