// Job schedulers of one kind (`poll-git/<mapping>`, `links-schedule/<mapping>`...), the one loop
// every kind's schedulers go through: the wanted ones are created or updated through the kind's
// handle (its name, queue and payload check), those no longer configured are removed. A scheduler
// runs each tick once, however many docsync processes share the Redis.
import { isDeepStrictEqual } from 'node:util';
import type { JobSchedulerJson, Queue, RepeatOptions } from 'bullmq';
import type { Logger } from '../log/create-logger.js';
import { jobId } from '../queue/job-id.js';
import type { JobKind } from '../queue/job-kind.js';
import { firstRunDelaysMs, spreadOffsetsMs } from './poll-offset.js';
import { firstRunJobId } from './scheduled-tick.js';

export interface WantedScheduler<I> {
  /** The mapping (or spec) it belongs to: the scheduler id is `<kind>/<key>`. */
  key: string;
  repeat: Omit<RepeatOptions, 'key'>;
  payload: I;
  /**
   * What its place in the interval is drawn from when the schedulers are spread: the repository of
   * a git poll, so that the mappings of one repository tick together; the key when not given.
   */
  spreadKey?: string;
}

export interface SyncOptions {
  /** The first part of the scheduler ids, the kind's name unless given. */
  prefix?: string;
  /**
   * Spread `every` schedulers over their interval (spreadOffsetsMs), and run a new one's first tick
   * at once, `firstRunPaceMs` after the new one before it (one per spread key), rather than all
   * together or an interval later.
   */
  spread?: { firstRunPaceMs: number };
}

/**
 * `options.prefix`: the link check schedulers keep `links-schedule/<mapping>`, the ids they have in
 * every Redis that ran docsync. All of a kind's schedulers are put in place at once (one pass of
 * round trips on the connection, not one after the other), then those no longer configured removed.
 */
export async function syncJobSchedulers<P, I>(
  queue: Queue,
  kind: JobKind<P, I>,
  wanted: readonly WantedScheduler<I>[],
  log: Logger,
  options: SyncOptions = {},
): Promise<void> {
  const prefix = options.prefix ?? kind.name;
  const existing = new Map(
    (await queue.getJobSchedulers()).flatMap((scheduler) =>
      scheduler.key.startsWith(`${prefix}/`) ? [[scheduler.key, scheduler] as const] : [],
    ),
  );
  const offsets = options.spread === undefined ? undefined : offsetsOf(wanted);
  const planned = wanted.map((scheduler) => {
    const id = jobId(prefix, scheduler.key);
    const { every } = scheduler.repeat;
    const offset = every === undefined ? undefined : offsets?.get(every)?.get(spreadKeyOf(scheduler));
    const repeat = offset === undefined ? scheduler.repeat : { ...scheduler.repeat, offset };
    return { id, scheduler, repeat, before: existing.get(id) };
  });
  await Promise.all(
    planned.map(async ({ id, scheduler, repeat, before }) => {
      // BullMQ keeps a scheduler's place in its interval on an update: one made before its place was
      // drawn (or at another) is made again to take it.
      if (before !== undefined && repeat.offset !== undefined && before.offset !== repeat.offset)
        await queue.removeJobScheduler(id);
      await kind.schedule(queue, id, repeat, scheduler.payload);
    }),
  );
  if (options.spread !== undefined) await queueFirstRuns(queue, kind, planned, options.spread.firstRunPaceMs);
  const ids = new Set(planned.map((one) => one.id));
  for (const key of existing.keys()) {
    if (!ids.has(key)) {
      await queue.removeJobScheduler(key);
      log.info({ kind: kind.name, scheduler: key }, 'job scheduler no longer configured deleted');
    }
  }
  log.info({ kind: kind.name, schedulers: ids.size }, 'job schedulers in place');
}

const spreadKeyOf = (scheduler: WantedScheduler<unknown>) => scheduler.spreadKey ?? scheduler.key;

/** The offset of each spread key, by interval: the keys of one interval placed evenly over it. */
function offsetsOf(wanted: readonly WantedScheduler<unknown>[]): Map<number, Map<string, number>> {
  const keysByEvery = new Map<number, string[]>();
  for (const scheduler of wanted) {
    const { every } = scheduler.repeat;
    if (every === undefined) continue;
    const keys = keysByEvery.get(every) ?? [];
    keys.push(spreadKeyOf(scheduler));
    keysByEvery.set(every, keys);
  }
  return new Map([...keysByEvery].map(([every, keys]) => [every, spreadOffsetsMs(keys, every)]));
}

/**
 * The first tick of each new spread scheduler, or one whose payload changed, at once and paced
 * (firstRunDelaysMs): a mapping added, or a new fleet, polls now rather than at its place in the interval. One rank per spread
 * key, so that the mappings of one repository still poll together.
 */
async function queueFirstRuns<P, I>(
  queue: Queue,
  kind: JobKind<P, I>,
  planned: readonly {
    id: string;
    scheduler: WantedScheduler<I>;
    repeat: Omit<RepeatOptions, 'key'>;
    before: JobSchedulerJson | undefined;
  }[],
  paceMs: number,
): Promise<void> {
  // New, or polling other mappings (a mapping added to its repository's scheduler): polled now.
  const fresh = planned.filter(
    (one) =>
      one.repeat.every !== undefined &&
      (one.before === undefined || !isDeepStrictEqual(one.before.template?.data, one.scheduler.payload)),
  );
  if (fresh.length === 0) return;
  const ranks = new Map<string, number>();
  for (const { scheduler } of fresh) {
    const key = spreadKeyOf(scheduler);
    if (!ranks.has(key)) ranks.set(key, ranks.size);
  }
  const every = Math.min(...fresh.map((one) => one.repeat.every ?? Number.POSITIVE_INFINITY));
  const delays = firstRunDelaysMs(ranks.size, every, paceMs);
  const at = Date.now();
  // The kind's options (its payload checked) under an id of the scheduler's, as its ticks have.
  await queue.addBulk(
    fresh.map(({ id, scheduler }) => ({
      name: kind.name,
      data: scheduler.payload,
      opts: {
        ...kind.jobOptions(scheduler.payload, { delay: delays[ranks.get(spreadKeyOf(scheduler)) ?? 0] ?? 0 }),
        jobId: firstRunJobId(id, at),
      },
    })),
  );
}
