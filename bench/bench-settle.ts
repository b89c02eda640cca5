// Waiting in the fleet benchmarks: for a condition within a deadline, and for docsync's queues to
// have nothing left to run.
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUE_NAMES } from '../src/queue/queue-names.js';

/** No job waiting, prioritized or active on any queue (delayed ones are the schedulers' next ticks). */
export async function queuesIdle(client: Redis, prefix: string): Promise<boolean> {
  for (const name of QUEUE_NAMES) {
    const queue = new Queue(name, { connection: client, prefix });
    const counts = await queue.getJobCounts('waiting', 'prioritized', 'active');
    await queue.close();
    if ((counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.active ?? 0) > 0) return false;
  }
  return true;
}

/** Resolves once `test` holds, polled every 250 ms; fails naming `what` after `timeoutMs`. */
export async function until(test: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`bench: ${what} did not happen within ${timeoutMs} ms`);
    await sleep(250);
  }
}
