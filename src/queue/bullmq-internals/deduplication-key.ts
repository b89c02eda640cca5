// BullMQ's deduplication key of a work (`<prefix>:<queue>:de:<deduplication id>`, a string holding
// the id of the job that keeps it): BullMQ sets it when it adds a deduplicated job and deletes it
// when that job finishes, and has no call that sets it for a job retried.
import type { Queue } from 'bullmq';
import type { RedisClient } from '../../redis/redis-connections.js';

/** Makes `jobId` the job of deduplication id `deduplicationId`, unless a job holds it already (NX). */
export async function holdDeduplicationKey(
  redis: Pick<RedisClient, 'set'>,
  queue: Queue,
  deduplicationId: string,
  jobId: string,
): Promise<void> {
  await redis.set(queue.toKey(`de:${deduplicationId}`), jobId, 'NX');
}
