// A worker that fails every job of a queue as a 401 does (for good), until `done` answers true: the
// failed jobs a test of retries or back-offs starts from, with no processor of docsync's involved.
import { UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { redisUrl } from './test-context.js';
import { waitFor } from './wait-for.js';

export async function failJobsUntil(
  queue: string,
  prefix: string,
  done: () => Promise<boolean>,
  what: string,
): Promise<void> {
  const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const worker = new Worker(
    queue,
    async () => {
      throw new UnrecoverableError('401 a valid bearer token is required');
    },
    { connection, prefix },
  );
  worker.on('error', () => undefined);
  try {
    await waitFor(async () => (await done()) || undefined, what);
  } finally {
    await worker.close();
    await connection.quit();
  }
}
