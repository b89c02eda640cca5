// Runs the processors of jobs/ inside BullMQ workers: refuses a job on a queue not its own,
// validates each payload, gives the processor a child logger with the job's ids and an
// AbortSignal, takes the space lock, logs one line and records one metric per outcome (and one
// event, when the processor describes what it did), has the definition record a failure under one
// rule (#onFailure) and a success after it (onSuccess), and turns permanent failures into
// BullMQ's UnrecoverableError so they are not retried.
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Config } from '../config/config-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { PayloadError } from '../errors/payload-error.js';
import { closeAll } from '../lifecycle/close-all.js';
import { linkedAbort } from '../lifecycle/linked-abort.js';
import type { Logger } from '../log/create-logger.js';
import { redactError } from '../log/redact-error.js';
import { throttledErrorLog } from '../log/throttled-error-log.js';
import type { JobOutcome } from '../metrics/docsync-metrics.js';
import { failedJobEvent } from '../notify/failed-job-event.js';
import type { RedisClient } from '../redis/redis-connections.js';
import { busyDelay } from './busy-delay.js';
import type { AnyJobDefinition, JobContext, JobDeps, JobResult } from './job-definition.js';
import { LockWaiters } from './lock-waiters.js';
import type { QueueName } from './queue-names.js';
import { isPermanent, rateLimitPauseMs } from './retry-policy.js';
import { type HeldLock, SpaceLocks } from './space-locks.js';

/** Kills in a row a job survives: enough for crash loops and rolling restarts, not for a poison job. */
const MAX_STALLED_COUNT = 5;

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

export class JobRunner {
  readonly #workers: Worker[] = [];
  readonly #byName: ReadonlyMap<string, AnyJobDefinition>;
  readonly #locks: SpaceLocks;
  readonly #options: JobRunnerOptions;
  readonly #owner = `${hostname()}:${process.pid}`;
  #closing: Promise<void> | undefined;
  /** Lock releases sent and not answered yet. */
  readonly #releasing = new Set<Promise<void>>();
  /** Jobs delayed here because their lock was busy: a release here starts the longest waiting one. */
  readonly #waiters = new LockWaiters();

  constructor(options: JobRunnerOptions) {
    this.#options = options;
    this.#byName = new Map(options.definitions.map((definition) => [definition.name, definition]));
    if (this.#byName.size !== options.definitions.length)
      throw new Error('two job definitions share one name');
    this.#locks = new SpaceLocks(options.connection, {
      prefix: options.config.redis.prefix,
      ttlMs: options.config.locks.ttl,
      log: options.log,
    });
  }

  /** Starts one worker per queue that has processors. */
  start(): void {
    // Every active job listens to the stop signal for as long as it runs: many at once is expected.
    setMaxListeners(0, this.#options.stopSignal);
    const queues = new Set(this.#options.definitions.map((definition) => definition.queue));
    for (const queue of queues) {
      const worker = new Worker(queue, (job, token, signal) => this.#process(queue, job, token, signal), {
        connection: this.#options.connection,
        prefix: this.#options.config.redis.prefix,
        concurrency: this.#options.config.queues.concurrency,
        // A job of a killed process runs again within lockDuration + stalledInterval.
        lockDuration: this.#options.config.queues.lockDuration,
        stalledInterval: this.#options.config.queues.stalledInterval,
        // A job whose process was killed runs again; BullMQ's default (1) would fail it for good,
        // without a trace, the second time that happens to it in a row.
        maxStalledCount: MAX_STALLED_COUNT,
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
      if (options.force !== true) await Promise.all(this.#releasing);
    });
    return this.#closing;
  }

  async #process(
    queue: QueueName,
    job: Job,
    token: string | undefined,
    cancel: AbortSignal | undefined,
  ): Promise<JobResult> {
    const started = Date.now();
    const definition = this.#byName.get(job.name);
    const attempt = job.attemptsMade + 1;
    const maxAttempts = job.opts.attempts ?? 1;
    const base = this.#options.log.child({ queue, job: job.id, name: job.name, attempt });
    // A name no processor has comes from outside docsync: as a label it would be unbounded.
    const record = (result: JobOutcome) =>
      this.#options.deps.metrics.jobFinished(
        queue,
        definition?.name ?? 'unknown',
        result,
        Date.now() - started,
      );
    if (definition === undefined) {
      record('failed');
      base.error({ result: 'failed', code: 'JOB_UNKNOWN' satisfies ErrorCode }, 'job failed permanently');
      throw new UnrecoverableError(`JOB_UNKNOWN: no processor named ${job.name} on queue ${queue}`);
    }
    // Queued by hand on another queue: running it here would bypass that queue's pause, rate
    // limit and concurrency, and its own queue's workers would never see it.
    if (definition.queue !== queue) {
      record('failed');
      base.error(
        { result: 'failed', code: 'JOB_WRONG_QUEUE' satisfies ErrorCode, expectedQueue: definition.queue },
        'job failed permanently',
      );
      throw new UnrecoverableError(
        `JOB_WRONG_QUEUE: job ${job.name} belongs on queue ${definition.queue}, not ${queue}`,
      );
    }
    const parsed = definition.payload.safeParse(job.data);
    if (!parsed.success) {
      const error = new PayloadError(job.name, parsed.error);
      record('failed');
      base.error({ result: 'failed', code: error.code, issues: error.issues }, 'job failed permanently');
      throw new UnrecoverableError(`${error.code}: ${error.message}`);
    }
    const payload = parsed.data;
    // The runner binds what it knows, the lock key; a processor binds its own fields (mapping,
    // space, change request), so no field appears twice in a line.
    const lockKey = definition.lockKey?.(payload);
    const log = lockKey === undefined ? base : base.child({ lockKey });

    let lock: HeldLock | undefined;
    this.#waiters.forget(String(job.id));
    if (lockKey !== undefined) {
      lock = await this.#locks.tryAcquire(
        lockKey,
        this.#owner,
        token === undefined ? undefined : { queue, job: String(job.id), token },
        definition.lock ?? 'write',
      );
      if (lock === undefined) {
        // Runs of this job that ended neither in a result nor in a failure: the busy ones (and the
        // stalled ones), counted by BullMQ in Redis, so across processes and without a round trip.
        const busyRuns = Math.max(0, (job.attemptsStarted ?? 0) - job.attemptsMade - 1);
        const delayMs = busyDelay(
          busyRuns,
          this.#options.config.locks.busyDelay,
          this.#options.random ?? Math.random,
        );
        record('delayed');
        log.debug({ delayMs, busyRuns }, 'space busy, job delayed');
        const dueAt = Date.now() + delayMs;
        this.#waiters.add(this.#locks.keyOf(lockKey, definition.lock ?? 'write'), {
          id: String(job.id),
          dueAt,
          promote: () => job.promote(),
        });
        await job.moveToDelayed(dueAt, token);
        throw new DelayedError();
      }
    }

    const abort = linkedAbort([
      this.#options.stopSignal,
      ...(cancel ? [cancel] : []),
      ...(lock ? [lock.lost] : []),
    ]);
    const ctx: JobContext = {
      ...this.#options.deps,
      log,
      signal: abort.signal,
      job: { id: String(job.id), name: job.name, queue, attempt, maxAttempts },
    };
    try {
      const result = await definition.run(ctx, payload);
      // A processor that ignored its signal must not report success for work another process may
      // have done at the same time for the same space.
      if (lock?.lost.aborted) throw lock.lost.reason;
      record('completed');
      log.info({ ...result, durationMs: Date.now() - started }, 'job completed');
      await this.#recordEvent(queue, definition, payload, result, log);
      // A completed run ends the failures in a row onFailure counted; never in a dry run either.
      if (definition.onSuccess !== undefined && !ctx.dryRun)
        await bestEffort(log, 'success not recorded', async () =>
          definition.onSuccess?.(ctx, payload, result),
        );
      return result;
    } catch (error) {
      const lost = lock?.lost.aborted ? lock.lost.reason : undefined;
      const cause: unknown = lost ?? error;
      const code = cause instanceof DocsyncError ? cause.code : undefined;
      const durationMs = Date.now() - started;
      const pauseMs = rateLimitPauseMs(cause);
      if (pauseMs !== undefined) {
        // The job goes back to waiting without using an attempt; the queue waits for the service.
        await this.#options.deps.queues.get(queue).rateLimit(pauseMs);
        record('rate-limited');
        this.#options.deps.metrics.rateLimitWait('queue', pauseMs);
        log.warn({ result: 'rate-limited', pauseMs, durationMs }, 'service rate limit: queue paused');
        throw Worker.RateLimitError();
      }
      // BullMQ stores the reason and stack in Redis, where log redaction does not reach.
      const stored = redactError(cause);
      if (isPermanent(cause)) {
        record('failed');
        log.error({ result: 'failed', code, err: cause, durationMs }, 'job failed permanently');
        await this.#onFailure(definition, ctx, payload, cause);
        await this.#notifyFailed(definition, ctx, payload, cause);
        throw new UnrecoverableError(
          `${code ?? ('FAILED' satisfies ErrorCode)}: ${stored instanceof Error ? stored.message : String(stored)}`,
        );
      }
      if (attempt < maxAttempts) {
        record('retrying');
        log.warn({ result: 'retrying', code, err: cause, durationMs }, 'job failed, will retry');
      } else {
        record('failed');
        log.error({ result: 'failed', code, err: cause, durationMs }, 'job failed, attempts used up');
        await this.#notifyFailed(definition, ctx, payload, cause);
      }
      await this.#onFailure(definition, ctx, payload, cause);
      throw stored;
    } finally {
      abort.dispose();
      // Off the job's path: the slot is free before Redis answers. The release script removes the
      // lock only while it still holds this run's token, and never rejects.
      if (lock !== undefined) this.#release(lock);
    }
  }

  /** Releases `lock` in the background; close() waits for the releases under way. */
  #release(lock: HeldLock): void {
    // Once the lock is free, a job of this process that found it busy starts now, not at its retry.
    const releasing = lock
      .release()
      .then(() => this.#waiters.wakeNext(lock.key))
      .then((woken) => {
        if (woken !== undefined) this.#options.log.debug({ lock: lock.key, job: woken }, 'lock waiter woken');
      })
      .finally(() => this.#releasing.delete(releasing));
    this.#releasing.add(releasing);
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

/** A write for people (state, events) that fails is a warning, never the job's outcome. */
async function bestEffort(log: Logger, message: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    log.warn({ err: error }, message);
  }
}
