// Which jobs of a queue have finished, read from BullMQ's sorted sets of finished jobs
// (`<prefix>:<queue>:completed` and `:failed`, scored by finish time) in one ZMSCORE each for any
// number of ids: the states BullMQ's getJobState tries first. getJobState would go on, for a new
// id, to scan the queue's wait and active lists (LPOS, linear in the jobs waiting), once per id.
import type { Queue } from 'bullmq';
import { Cluster, Redis } from 'ioredis';

/** BullMQ's states after which a job is done: each a sorted set of the queue, by job id. */
const FINISHED_STATES = ['completed', 'failed'] as const;

/** Per job id, whether a job of that id is completed or failed. */
export async function finishedJobs(queue: Queue, jobIds: readonly string[]): Promise<boolean[]> {
  const { connection } = queue.opts;
  if (connection instanceof Redis || connection instanceof Cluster) {
    const scores = await Promise.all(
      FINISHED_STATES.map((state) => connection.zmscore(queue.toKey(state), ...jobIds)),
    );
    return jobIds.map((_, index) => scores.some((of) => of[index] !== null));
  }
  // A queue given connection options instead of a client: the client BullMQ made for it.
  const client = await queue.getBackend().client;
  return Promise.all(
    jobIds.map(async (id) => {
      const scores = await Promise.all(FINISHED_STATES.map((state) => client.zscore(queue.toKey(state), id)));
      return scores.some((score) => score !== null);
    }),
  );
}
