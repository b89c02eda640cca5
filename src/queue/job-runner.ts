// Runs the processors of jobs/ inside BullMQ workers: refuses a job no processor of its queue may
// run (src/queue/accept-job.ts), gives the processor the services it named, a child logger with
// the job's ids and an AbortSignal, takes the space lock, logs one line and counts one metric per
// outcome, and ends each run under one rule (src/queue/job-ending.ts): what a failure becomes, and
// what either end records.
import { hostname } from 'node:os';
import { DelayedError, type Job, Worker } from 'bullmq';
import { closeAll } from '../lifecycle/close-all.js';
import type { Logger } from '../log/create-logger.js';
import { throttledErrorLog } from '../log/throttled-error-log.js';
import type { JobOutcome } from '../metrics/docsync-metrics.js';
import { acceptJob, type RunnableKind } from './accept-job.js';
import { busyDelay, FIRST_BUSY_RETRY_MS } from './busy-delay.js';
import { JobAbort } from './job-abort.js';
import { jobContext } from './job-context.js';
import type { JobResult, JobRun, RunningJob } from './job-definition.js';
import { JobEnding } from './job-ending.js';
import type { JobRunnerOptions } from './job-runner-options.js';
import { LocalTurns } from './local-turns.js';
import { LockWaiters } from './lock-waiters.js';
import type { QueueName } from './queue-names.js';
import { type HeldLock, SpaceLocks } from './space-locks.js';

/** Kills in a row a job survives: enough for crash loops and rolling restarts, not for a poison job. */
const MAX_STALLED_COUNT = 5;

/**
 * The limiter of docsync's workers: BullMQ counts the jobs it starts per `duration` against `max`
 * (one INCR in the script that starts a job), and honours the queue's pause only when `max` is set.
 */
const UNREACHED_LIMITER = { max: Number.MAX_SAFE_INTEGER, duration: 1000 };

export class JobRunner {
  readonly #workers: Worker[] = [];
  readonly #kinds: ReadonlyMap<string, RunnableKind>;
  readonly #ending: JobEnding;
  readonly #locks: SpaceLocks;
  readonly #options: JobRunnerOptions;
  readonly #owner = `${hostname()}:${process.pid}`;
  #closing: Promise<void> | undefined;
  /** Jobs delayed here because their lock was busy: a release here starts the longest waiting one. */
  readonly #waiters = new LockWaiters();
  /** The locks jobs of this process hold, and the job of this process waiting for each. */
  readonly #turns = new LocalTurns(FIRST_BUSY_RETRY_MS);
  /** The signals of the jobs running now: the stop signal aborts them all (one listener in all). */
  readonly #running = new Set<JobAbort>();

  constructor(options: JobRunnerOptions) {
    this.#options = options;
    this.#ending = new JobEnding(options);
    this.#kinds = new Map(
      options.definitions.map((definition) => [
        definition.name,
        {
          definition,
          log: options.log.child({ queue: definition.queue, name: definition.name }),
          lock: definition.lock ?? 'write',
          services: options.servicesFor(definition),
        },
      ]),
    );
    if (this.#kinds.size !== options.definitions.length)
      throw new Error('two job definitions share one name');
    this.#locks = new SpaceLocks(options.connection, {
      prefix: options.config.redis.prefix,
      ttlMs: options.config.locks.ttl,
      log: options.log,
    });
    const { stopSignal } = options;
    stopSignal.addEventListener(
      'abort',
      () => {
        for (const running of this.#running) running.abort(stopSignal.reason);
      },
      { once: true },
    );
  }

  /** Starts one worker per queue that has processors. */
  start(): void {
    const queues = new Set(this.#options.definitions.map((definition) => definition.queue));
    for (const queue of queues) {
      // Two parameters: BullMQ makes a cancel signal per job only for a processor that takes a
      // third, and docsync never cancels a job through BullMQ (its stop signal and lock do that).
      const worker = new Worker(queue, (job, token) => this.#process(queue, job, token), {
        connection: this.#options.connection,
        prefix: this.#options.config.redis.prefix,
        concurrency: this.#options.config.queues.concurrency,
        // A job of a killed process runs again within lockDuration + stalledInterval.
        lockDuration: this.#options.config.queues.lockDuration,
        stalledInterval: this.#options.config.queues.stalledInterval,
        // A job whose process was killed runs again; BullMQ's default (1) would fail it for good,
        // without a trace, the second time that happens to it in a row.
        maxStalledCount: MAX_STALLED_COUNT,
        // BullMQ checks a queue's rate limit (what Queue.rateLimit sets on a service's 429, see
        // #failed) only for workers with a limiter: one no queue ever reaches on its own.
        limiter: UNREACHED_LIMITER,
      });
      const log = this.#options.log.child({ queue });
      worker.on('error', throttledErrorLog(log, 'worker error', 'error'));
      worker.on('stalled', (jobId) => log.warn({ job: jobId }, 'job stalled, it will run again'));
      this.#workers.push(worker);
    }
    this.#options.log.info({ queues: [...queues] }, 'workers started');
  }

  get workerCount(): number {
    return this.#workers.length;
  }

  /** Stops taking jobs and waits for the active ones to finish (unless forced). Idempotent. */
  close(options: { force?: boolean } = {}): Promise<void> {
    // Forced: Redis is gone, so waiting for active jobs to report their end would wait forever.
    this.#closing ??= closeAll(
      this.#workers.map((worker) => () => worker.close(options.force === true)),
    ).finally(async () => {
      // A release left unanswered would leave its lock to expire: wait for the ones under way,
      // unless forced (Redis is gone, they could only time out).
      if (options.force !== true) await this.#locks.settled();
    });
    return this.#closing;
  }

  async #process(queue: QueueName, job: Job, token: string | undefined): Promise<JobResult> {
    const started = Date.now();
    const { kind, payload } = acceptJob(
      { kinds: this.#kinds, metrics: this.#options.metrics, log: this.#options.log, started },
      queue,
      job,
    );
    const { definition } = kind;
    const id = String(job.id);
    const attempt = job.attemptsMade + 1;
    const count = (result: JobOutcome) =>
      this.#options.metrics.jobFinished(queue, definition.name, result, Date.now() - started);
    // The runner binds what it knows, the lock key; a processor binds its own fields (mapping,
    // space, change request), so no field appears twice in a line.
    const lockKey = definition.lockKey?.(payload);
    const log = kind.log.child(lockKey === undefined ? { job: id, attempt } : { job: id, attempt, lockKey });
    // The job's own abort (its signal made when read: a processor may combine it with others, it is
    // garbage after the job), aborted by the stop signal (through #running) or when its lock is lost.
    const abort = new JobAbort();
    this.#waiters.forget(id);
    const held =
      lockKey === undefined
        ? undefined
        : await this.#takeLock(queue, job, token, this.#locks.keyOf(lockKey, kind.lock), {
            abort,
            log,
            count,
          });
    const stopSignal = this.#options.stopSignal;
    if (stopSignal.aborted) abort.abort(stopSignal.reason);
    else this.#running.add(abort);
    const running = { id, name: job.name, queue, attempt, maxAttempts: job.opts.attempts ?? 1 };
    const ctx = jobContext(kind.services, log, abort, running, this.#recordOutcome(running));
    const run = { queue, job, definition, ctx, payload };
    try {
      const result = await definition.run(ctx, payload);
      // A processor that ignored its signal must not report success for work another process may
      // have done at the same time for the same space.
      if (held?.lostReason !== undefined) throw held.lostReason;
      count('completed');
      log.info({ ...result, durationMs: Date.now() - started }, 'job completed');
      await this.#ending.succeeded(run, result);
      return result;
    } catch (error) {
      const cause: unknown = held?.lostReason ?? error;
      const failure = { cause, workId: job.deduplicationId, durationMs: Date.now() - started };
      return await this.#ending.failed(run, failure, count);
    } finally {
      this.#running.delete(abort);
      // Off the job's path: the slot is free before Redis answers. The release script removes the
      // lock only while it still holds this run's token, and never rejects.
      if (held !== undefined) this.#release(held);
    }
  }

  /** What a processor records of the units it names itself (a batch): nothing in a dry run. */
  #recordOutcome(job: RunningJob): JobRun['recordOutcome'] {
    return async (unit, outcome) => {
      if (!this.#options.dryRun) await this.#options.outcomes.record(unit, outcome, job);
    };
  }

  /**
   * The space lock `key` for this run, once a job of this process holding it ended; when a job of
   * another process holds it, the job is delayed (DelayedError) and waits among the lock's waiters.
   */
  async #takeLock(
    queue: QueueName,
    job: Job,
    token: string | undefined,
    key: string,
    run: { abort: JobAbort; log: Logger; count: (result: JobOutcome) => void },
  ): Promise<HeldLock> {
    const { abort, log } = run;
    const id = String(job.id);
    // Held by a job of this process: wait for its end here rather than hear "busy" from Redis.
    const turn = this.#turns.wait(key);
    if (turn !== undefined) {
      log.debug('space held by a job of this process, waiting for its end');
      await turn;
    }
    const lock = await this.#locks.acquireKey(
      key,
      this.#owner,
      token === undefined ? undefined : { queue, job: id, token },
      (reason) => abort.abort(reason),
    );
    if (lock !== undefined) {
      this.#turns.holding(key);
      return lock;
    }
    // Runs of this job that ended neither in a result nor in a failure: the busy ones (and the
    // stalled ones), counted by BullMQ in Redis, so across processes and without a round trip.
    const busyRuns = Math.max(0, (job.attemptsStarted ?? 0) - job.attemptsMade - 1);
    const delayMs = busyDelay(
      busyRuns,
      this.#options.config.locks.busyDelay,
      this.#options.random ?? Math.random,
    );
    run.count('delayed');
    log.debug({ delayMs, busyRuns }, 'space busy, job delayed');
    const dueAt = Date.now() + delayMs;
    this.#waiters.add(key, {
      id,
      dueAt,
      promote: () => job.promote(),
    });
    await job.moveToDelayed(dueAt, token);
    throw new DelayedError();
  }

  /** Releases `lock` in the background; close() waits for the releases under way. */
  #release(lock: HeldLock): void {
    const released = lock.release();
    // A job of this process waiting in its slot takes the lock in the same call as the release.
    if (this.#turns.released(lock.key)) return;
    // Once the lock is free, a job of this process that found it busy starts now, not at its retry.
    void released.then(() => {
      if (this.#waiters.count(lock.key) > 0 && !this.#turns.waiting(lock.key)) void this.#wakeNext(lock.key);
    });
  }

  async #wakeNext(key: string): Promise<void> {
    const woken = await this.#waiters.wakeNext(key);
    if (woken !== undefined) this.#options.log.debug({ lock: key, job: woken }, 'lock waiter woken');
  }
}
