// Where the back-off of failed work (src/queue/work-back-off.ts) is kept: one JSON string per work
// among its queue's keys (`<prefix>:<queue>:backoff:<work id>`), written by the runner when a job of
// the work fails for good and removed when a rerun of it completes, and per queue the time docsync
// last started (`<prefix>:<queue>:backoff-reset`), before which every record counts as none. All
// of it is harmless to lose: work without its record is tried at once, as before a failure.
import type { Queue } from 'bullmq';
import { QUEUE_NAMES } from './queue-names.js';
import type { Queues } from './queues.js';
import { RETRY_POLICY } from './retry-policy.js';
import { backOffLeftMs, nextBackOff, type WorkBackOff, workBackOffSchema } from './work-back-off.js';

/** BullMQ's client of a queue (its own wrapper of the connection), as far as back-offs use it. */
interface BackOffClient {
  get(key: string): Promise<string | null>;
  set(key: string, value: string | number, options?: { PX?: number }): Promise<string | null>;
  del(...keys: string[]): Promise<number>;
}

async function clientOf(queue: Queue): Promise<BackOffClient> {
  return await queue.getBackend().client;
}

const recordKey = (queue: Queue, workId: string) => queue.toKey(`backoff:${workId}`);
const resetKey = (queue: Queue) => queue.toKey('backoff-reset');

/** A record that does not read back (hand-edited, an older docsync's) is no record: one try at once. */
function parseRecord(text: string | null): WorkBackOff | undefined {
  if (text === null) return undefined;
  try {
    const parsed = workBackOffSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function parseReset(text: string | null): number | undefined {
  const at = Number(text ?? Number.NaN);
  return Number.isFinite(at) ? at : undefined;
}

/** The wait still ahead of each work, with the job that failed last; `leftMs` 0 when it may run. */
export interface BackOffLeft {
  leftMs: number;
  job?: string | undefined;
}

export async function backOffsLeft(
  queue: Queue,
  workIds: readonly string[],
  now: Date,
): Promise<BackOffLeft[]> {
  if (workIds.length === 0) return [];
  const client = await clientOf(queue);
  const [reset, ...records] = await Promise.all([
    client.get(resetKey(queue)),
    ...workIds.map((id) => client.get(recordKey(queue, id))),
  ]);
  const resetAt = parseReset(reset ?? null);
  return records.map((text) => {
    const record = parseRecord(text ?? null);
    return { leftMs: backOffLeftMs(record, resetAt, now), job: record?.job };
  });
}

/**
 * One more failure for good of the work, by job `jobId`: the record with its next try. It outlives
 * that try by the longest wait, so that the failure of the try counts on from it.
 */
export async function recordWorkFailure(
  queue: Queue,
  workId: string,
  jobId: string,
  now: Date,
  random: () => number,
): Promise<WorkBackOff> {
  const client = await clientOf(queue);
  const [previous, reset] = await Promise.all([
    client.get(recordKey(queue, workId)),
    client.get(resetKey(queue)),
  ]);
  const record = nextBackOff(parseRecord(previous), parseReset(reset), jobId, now, random);
  const keepMs = Date.parse(record.nextTry) - now.getTime() + 2 * RETRY_POLICY.failedWorkBackOff.maxMs;
  await client.set(recordKey(queue, workId), JSON.stringify(record), { PX: keepMs });
  return record;
}

/** The work ran through, or a person asked for it now (`docsync retry`): its back-off is over. */
export async function endWorkBackOff(queue: Queue, workId: string): Promise<void> {
  await (await clientOf(queue)).del(recordKey(queue, workId));
}

/**
 * A start of docsync: every work's failures so far count as none, and the work is tried when next
 * queued. Any process's start does it for all: the one restarted may be the one whose token is new.
 */
export async function resetWorkBackOffs(queues: Pick<Queues, 'get'>, now: Date): Promise<void> {
  await Promise.all(
    QUEUE_NAMES.map(async (name) => {
      const queue = queues.get(name);
      await (await clientOf(queue)).set(resetKey(queue), now.getTime());
    }),
  );
}
