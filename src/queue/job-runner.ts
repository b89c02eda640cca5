// Runs the processors of jobs/ inside BullMQ workers: refuses a job on a queue not its own,
// validates each payload, gives the processor a child logger with the job's ids and an
// AbortSignal, takes the space lock, logs one line and records one metric per outcome (and one
// event, when the processor describes what it did), has the definition record a failure under one
// rule (#onFailure) and a success after it (onSuccess), and turns permanent failures into
// BullMQ's UnrecoverableError so they are not retried.
import { hostname } from 'node:os';
import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Config } from '../config/config-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { PayloadError } from '../errors/payload-error.js';
import { closeAll } from '../lifecycle/close-all.js';
import type { Logger } from '../log/create-logger.js';
import { redactError } from '../log/redact-error.js';
import { throttledErrorLog } from '../log/throttled-error-log.js';
import type { JobOutcome } from '../metrics/docsync-metrics.js';
import { failedJobEvent } from '../notify/failed-job-event.js';
import type { RedisClient } from '../redis/redis-connections.js';
import { bestEffort } from './best-effort.js';
import { busyDelay, FIRST_BUSY_RETRY_MS } from './busy-delay.js';
import { JobAbort } from './job-abort.js';
import { jobContext } from './job-context.js';
import type { AnyJobDefinition, JobContext, JobDeps, JobResult } from './job-definition.js';
import { LocalTurns } from './local-turns.js';
import { LockWaiters } from './lock-waiters.js';
import { pauseQueueAtLeast } from './pause-queue.js';
import type { QueueName } from './queue-names.js';
import { isPermanent, rateLimitPauseMs } from './retry-policy.js';
import { type HeldLock, type LockMode, SpaceLocks } from './space-locks.js';
import { endWorkBackOff, recordWorkFailure } from './work-back-offs.js';

/** Kills in a row a job survives: enough for crash loops and rolling restarts, not for a poison job. */
const MAX_STALLED_COUNT = 5;

/**
 * The limiter of docsync's workers: BullMQ counts the jobs it starts per `duration` against `max`
 * (one INCR in the script that starts a job), and honours the queue's pause only when `max` is set.
 */
const UNREACHED_LIMITER = { max: Number.MAX_SAFE_INTEGER, duration: 1000 };

export interface JobRunnerOptions {
  definitions: readonly AnyJobDefinition[];
  connection: RedisClient;
  config: Pick<Config, 'redis' | 'queues' | 'locks'>;
  deps: JobDeps;
  log: Logger;
  /** Aborted by the shutdown owner when it has to stop before active jobs end. */
  stopSignal: AbortSignal;
  random?: () => number;
}

/** What the runner binds once per job kind, not per job. */
interface Kind {
  definition: AnyJobDefinition;
  /** The root logger with the kind's queue and name bound. */
  log: Logger;
  lock: LockMode;
}

export class JobRunner {
  readonly #workers: Worker[] = [];
  readonly #kinds: ReadonlyMap<string, Kind>;
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
    this.#kinds = new Map(
      options.definitions.map((definition) => [
        definition.name,
        {
          definition,
          log: options.log.child({ queue: definition.queue, name: definition.name }),
          lock: definition.lock ?? 'write',
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
    const { kind, payload } = this.#accept(queue, job, started);
    const { definition } = kind;
    const id = String(job.id);
    const attempt = job.attemptsMade + 1;
    const record = (result: JobOutcome) =>
      this.#options.deps.metrics.jobFinished(queue, definition.name, result, Date.now() - started);
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
            record,
          });
    const stopSignal = this.#options.stopSignal;
    if (stopSignal.aborted) abort.abort(stopSignal.reason);
    else this.#running.add(abort);
    const ctx = jobContext(this.#options.deps, log, abort, {
      id,
      name: job.name,
      queue,
      attempt,
      maxAttempts: job.opts.attempts ?? 1,
    });
    try {
      const result = await definition.run(ctx, payload);
      // A processor that ignored its signal must not report success for work another process may
      // have done at the same time for the same space.
      if (held?.lostReason !== undefined) throw held.lostReason;
      record('completed');
      log.info({ ...result, durationMs: Date.now() - started }, 'job completed');
      await this.#succeeded(queue, job, definition, ctx, payload, result);
      return result;
    } catch (error) {
      const cause: unknown = held?.lostReason ?? error;
      const failure = { cause, workId: job.deduplicationId, durationMs: Date.now() - started };
      return await this.#failed(queue, definition, ctx, payload, failure, record);
    } finally {
      this.#running.delete(abort);
      // Off the job's path: the slot is free before Redis answers. The release script removes the
      // lock only while it still holds this run's token, and never rejects.
      if (held !== undefined) this.#release(held);
    }
  }

  /**
   * The job's kind and its payload, read from what BullMQ handed over; a job no processor of this
   * queue may run (an unknown name, another queue's job, a payload its schema refuses) fails for
   * good here, with its metric and its log line.
   */
  #accept(queue: QueueName, job: Job, started: number): { kind: Kind; payload: unknown } {
    const kind = this.#kinds.get(job.name);
    const id = String(job.id);
    const attempt = job.attemptsMade + 1;
    if (kind === undefined) {
      // A name no processor has comes from outside docsync: as a label it would be unbounded.
      this.#options.deps.metrics.jobFinished(queue, 'unknown', 'failed', Date.now() - started);
      this.#options.log.error(
        {
          queue,
          job: id,
          name: job.name,
          attempt,
          result: 'failed',
          code: 'JOB_UNKNOWN' satisfies ErrorCode,
        },
        'job failed permanently',
      );
      throw new UnrecoverableError(`JOB_UNKNOWN: no processor named ${job.name} on queue ${queue}`);
    }
    const { definition } = kind;
    // Queued by hand on another queue: running it here would bypass that queue's pause, rate
    // limit and concurrency, and its own queue's workers would never see it.
    if (definition.queue !== queue) {
      this.#options.deps.metrics.jobFinished(queue, definition.name, 'failed', Date.now() - started);
      this.#options.log.error(
        {
          queue,
          job: id,
          name: job.name,
          attempt,
          result: 'failed',
          code: 'JOB_WRONG_QUEUE' satisfies ErrorCode,
          expectedQueue: definition.queue,
        },
        'job failed permanently',
      );
      throw new UnrecoverableError(
        `JOB_WRONG_QUEUE: job ${job.name} belongs on queue ${definition.queue}, not ${queue}`,
      );
    }
    const parsed = definition.payload.safeParse(job.data);
    if (!parsed.success) {
      const error = new PayloadError(job.name, parsed.error);
      this.#options.deps.metrics.jobFinished(queue, definition.name, 'failed', Date.now() - started);
      kind.log.error(
        { job: id, attempt, result: 'failed', code: error.code, issues: error.issues },
        'job failed permanently',
      );
      throw new UnrecoverableError(`${error.code}: ${error.message}`);
    }
    return { kind, payload: parsed.data };
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
    run: { abort: JobAbort; log: Logger; record: (result: JobOutcome) => void },
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
    run.record('delayed');
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

  /**
   * The event for people, and the end of the failures in a row onFailure counted (never in a
   * dry run either): two writes of their own, at once. A job with neither awaits nothing.
   */
  async #succeeded(
    queue: QueueName,
    job: Job,
    definition: AnyJobDefinition,
    ctx: JobContext,
    payload: unknown,
    result: JobResult,
  ): Promise<void> {
    const { log } = ctx;
    const event =
      definition.describe === undefined
        ? undefined
        : this.#recordEvent(queue, definition, payload, result, log);
    const success =
      definition.onSuccess === undefined || ctx.dryRun
        ? undefined
        : bestEffort(log, 'success not recorded', async () => definition.onSuccess?.(ctx, payload, result));
    // Only a rerun can end a back-off: a work's first run had no failure before it.
    const workId = job.deduplicationId;
    const backOff =
      workId === undefined || workId === String(job.id) || ctx.dryRun
        ? undefined
        : bestEffort(log, 'back-off not ended', () =>
            endWorkBackOff(this.#options.deps.queues.get(queue), workId),
          );
    if (event !== undefined) await event;
    if (success !== undefined) await success;
    if (backOff !== undefined) await backOff;
  }

  /** Decides what a failed run becomes (rate-limit pause, retry, failure for good) and throws it. */
  async #failed(
    queue: QueueName,
    definition: AnyJobDefinition,
    ctx: JobContext,
    payload: unknown,
    failure: { cause: unknown; workId: string | undefined; durationMs: number },
    record: (result: JobOutcome) => void,
  ): Promise<never> {
    const { log } = ctx;
    const { cause, durationMs } = failure;
    const code = cause instanceof DocsyncError ? cause.code : undefined;
    const pauseMs = rateLimitPauseMs(cause);
    if (pauseMs !== undefined) {
      // The job goes back to waiting without using an attempt; the queue waits for the service (in
      // every process, as long as the longest pause asked for).
      const pausedMs = await pauseQueueAtLeast(
        this.#options.connection,
        this.#options.deps.queues.get(queue),
        pauseMs,
      );
      record('rate-limited');
      this.#options.deps.metrics.rateLimitWait('queue', pauseMs);
      const { retryAfterMs } = cause as { retryAfterMs?: unknown };
      log.warn(
        {
          result: 'rate-limited',
          pauseMs: pausedMs,
          ...(typeof retryAfterMs === 'number' && retryAfterMs > pauseMs ? { retryAfterMs } : {}),
          durationMs,
        },
        'service rate limit: queue paused',
      );
      throw Worker.RateLimitError();
    }
    // BullMQ stores the reason and stack in Redis, where log redaction does not reach.
    const stored = redactError(cause);
    if (isPermanent(cause)) {
      record('failed');
      log.error({ result: 'failed', code, err: cause, durationMs }, 'job failed permanently');
      await this.#backOff(queue, ctx, failure.workId);
      await this.#onFailure(definition, ctx, payload, cause);
      await this.#notifyFailed(definition, ctx, payload, cause);
      throw new UnrecoverableError(
        `${code ?? ('FAILED' satisfies ErrorCode)}: ${stored instanceof Error ? stored.message : String(stored)}`,
      );
    }
    if (ctx.job.attempt < ctx.job.maxAttempts) {
      record('retrying');
      log.warn({ result: 'retrying', code, err: cause, durationMs }, 'job failed, will retry');
    } else {
      record('failed');
      log.error({ result: 'failed', code, err: cause, durationMs }, 'job failed, attempts used up');
      await this.#backOff(queue, ctx, failure.workId);
      await this.#notifyFailed(definition, ctx, payload, cause);
    }
    await this.#onFailure(definition, ctx, payload, cause);
    throw stored;
  }

  /**
   * A job of a piece of work failed for good: the work backs off (src/queue/work-back-offs.ts), and
   * its next try goes to onFailure with the job. Not in a dry run, nor for an aborted job, which did
   * not fail on its own; best effort, as the failure's other records.
   */
  async #backOff(queue: QueueName, ctx: JobContext, workId: string | undefined): Promise<void> {
    if (workId === undefined || ctx.dryRun || ctx.signal.aborted) return;
    await bestEffort(ctx.log, 'back-off not recorded', async () => {
      const backOff = await recordWorkFailure(
        this.#options.deps.queues.get(queue),
        workId,
        ctx.job.id,
        ctx.now(),
        this.#options.random ?? Math.random,
      );
      ctx.job.nextTry = backOff.nextTry;
      ctx.log.info({ work: workId, failures: backOff.failures, nextTry: backOff.nextTry }, 'work backs off');
    });
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

  /**
   * The one failure rule: a dry run changes nothing, and an aborted job (shutdown, lost lock) did
   * not fail on its own, so neither records a failure. Recording is best effort: its own failure
   * is a warning, never the one the job reports.
   */
  async #onFailure(
    definition: AnyJobDefinition,
    ctx: JobContext,
    payload: unknown,
    error: unknown,
  ): Promise<void> {
    if (definition.onFailure === undefined || ctx.dryRun || ctx.signal.aborted) return;
    await bestEffort(ctx.log, 'failure not recorded', async () =>
      definition.onFailure?.(ctx, payload, error),
    );
  }

  /** A job failed for good: the webhooks of `notify:` that want it hear (never in a dry run, nor aborted). */
  async #notifyFailed(
    definition: AnyJobDefinition,
    ctx: JobContext,
    payload: unknown,
    error: unknown,
  ): Promise<void> {
    const { notify } = this.#options.deps;
    if (notify === undefined || ctx.dryRun || ctx.signal.aborted) return;
    const event = failedJobEvent({
      id: ctx.job.id,
      name: definition.name,
      payload,
      space: definition.lockKey?.(payload),
      error,
      at: ctx.now(),
    });
    if (event !== undefined) await notify(event);
  }

  /** The event log is for people: a write that fails is a warning, never the job's failure. */
  async #recordEvent(
    queue: QueueName,
    definition: AnyJobDefinition,
    payload: unknown,
    result: JobResult,
    log: Logger,
  ): Promise<void> {
    const summary = definition.describe?.(result, payload);
    if (summary === undefined || this.#options.deps.dryRun) return;
    const { mapping } = payload as { mapping?: unknown };
    // The event's space is the lock key, as it always was: the space of the jobs that change one.
    const space = definition.lockKey?.(payload);
    await bestEffort(log, 'event not recorded', () =>
      this.#options.deps.stores.events.record({
        at: this.#options.deps.now().toISOString(),
        queue,
        job: definition.name,
        result: result.result,
        summary,
        ...(typeof mapping === 'string' ? { mapping } : {}),
        ...(space === undefined ? {} : { space }),
      }),
    );
  }
}
