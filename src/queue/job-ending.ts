// How a run ends, once its processor returned or threw: what a failure becomes (a rate-limit pause
// of the queue, a retry, a failure for good with its back-off), and what either end records under
// the one rule of every kind: never in a dry run, never for an aborted job (shutdown, lost lock),
// each record best effort (its own failure a warning, never the job's). The unit a run counts
// toward comes from its kind (countsToward); the writes are the daemon's (JobOutcomes).
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { redactError } from '../log/redact-error.js';
import type { JobOutcome } from '../metrics/docsync-metrics.js';
import { bestEffort } from './best-effort.js';
import type { AnyJobDefinition, JobContext, JobResult } from './job-definition.js';
import type { EndedRun } from './job-outcomes.js';
import type { JobRunnerOptions } from './job-runner-options.js';
import { pauseQueueAtLeast } from './pause-queue.js';
import type { QueueName } from './queue-names.js';
import { isPermanent, rateLimitPauseMs } from './retry-policy.js';
import { endWorkBackOff, recordWorkFailure } from './work-back-offs.js';
import type { UnitOutcome } from './work-unit.js';

/** One run, as its end reads it. */
export interface EndingRun {
  queue: QueueName;
  job: Job;
  definition: AnyJobDefinition;
  ctx: JobContext;
  payload: unknown;
}

export interface RunFailure {
  cause: unknown;
  workId: string | undefined;
  durationMs: number;
}

export class JobEnding {
  readonly #options: JobRunnerOptions;

  constructor(options: JobRunnerOptions) {
    this.#options = options;
  }

  /**
   * The event for people, the end of the unit's failures in a row, and the end of the work's
   * back-off: writes of their own, at once. A run with none awaits nothing.
   */
  async succeeded(run: EndingRun, result: JobResult): Promise<void> {
    const { definition, ctx, payload, job, queue } = run;
    const summary = definition.describe?.(result, payload);
    const writes: Promise<void>[] = [];
    if (summary !== undefined && !this.#options.dryRun)
      writes.push(
        bestEffort(ctx.log, 'event not recorded', () =>
          this.#options.outcomes.event(this.#ended(run), result, summary),
        ),
      );
    if (result.counted !== false) {
      const unit = this.#record(run, { succeeded: true });
      if (unit !== undefined) writes.push(unit);
    }
    // Only a rerun can end a back-off: a work's first run had no failure before it.
    const workId = job.deduplicationId;
    if (workId !== undefined && workId !== String(job.id) && !this.#options.dryRun)
      writes.push(
        bestEffort(ctx.log, 'back-off not ended', () =>
          endWorkBackOff(this.#options.queues.get(queue), workId),
        ),
      );
    for (const write of writes) await write;
  }

  /** Decides what a failed run becomes (rate-limit pause, retry, failure for good) and throws it. */
  async failed(run: EndingRun, failure: RunFailure, count: (result: JobOutcome) => void): Promise<never> {
    const { ctx } = run;
    const { log } = ctx;
    const { cause, durationMs } = failure;
    const code = cause instanceof DocsyncError ? cause.code : undefined;
    const pauseMs = rateLimitPauseMs(cause);
    if (pauseMs !== undefined) {
      await this.#pause(run, pauseMs, durationMs, cause);
      count('rate-limited');
      throw Worker.RateLimitError();
    }
    // BullMQ stores the reason and stack in Redis, where log redaction does not reach.
    const stored = redactError(cause);
    if (isPermanent(cause)) {
      count('failed');
      log.error({ result: 'failed', code, err: cause, durationMs }, 'job failed permanently');
      await this.#backOff(run, failure.workId);
      await this.#recordFailure(run, cause);
      await this.#failedForGood(run, cause);
      throw new UnrecoverableError(
        `${code ?? ('FAILED' satisfies ErrorCode)}: ${stored instanceof Error ? stored.message : String(stored)}`,
      );
    }
    if (ctx.job.attempt < ctx.job.maxAttempts) {
      count('retrying');
      log.warn({ result: 'retrying', code, err: cause, durationMs }, 'job failed, will retry');
    } else {
      count('failed');
      log.error({ result: 'failed', code, err: cause, durationMs }, 'job failed, attempts used up');
      await this.#backOff(run, failure.workId);
      await this.#failedForGood(run, cause);
    }
    await this.#recordFailure(run, cause);
    throw stored;
  }

  /**
   * The job goes back to waiting without using an attempt; the queue waits for the service (in
   * every process, as long as the longest pause asked for).
   */
  async #pause(run: EndingRun, pauseMs: number, durationMs: number, cause: unknown): Promise<void> {
    const pausedMs = await pauseQueueAtLeast(
      this.#options.connection,
      this.#options.queues.get(run.queue),
      pauseMs,
    );
    this.#options.metrics.rateLimitWait('queue', pauseMs);
    const { retryAfterMs } = cause as { retryAfterMs?: unknown };
    run.ctx.log.warn(
      {
        result: 'rate-limited',
        pauseMs: pausedMs,
        ...(typeof retryAfterMs === 'number' && retryAfterMs > pauseMs ? { retryAfterMs } : {}),
        durationMs,
      },
      'service rate limit: queue paused',
    );
  }

  /**
   * A job of a piece of work failed for good: the work backs off (src/queue/work-back-offs.ts), and
   * its next try goes with the failure's record. Under the rule, as the failure's other records.
   */
  async #backOff(run: EndingRun, workId: string | undefined): Promise<void> {
    const { ctx } = run;
    if (workId === undefined || !this.#records(ctx)) return;
    await bestEffort(ctx.log, 'back-off not recorded', async () => {
      const backOff = await recordWorkFailure(
        this.#options.queues.get(run.queue),
        workId,
        ctx.job.id,
        this.#options.now(),
        this.#options.random ?? Math.random,
      );
      ctx.job.nextTry = backOff.nextTry;
      ctx.log.info({ work: workId, failures: backOff.failures, nextTry: backOff.nextTry }, 'work backs off');
    });
  }

  /** The failure counted toward the kind's unit, then what the job changes besides (afterFailure). */
  async #recordFailure(run: EndingRun, error: unknown): Promise<void> {
    const { definition, ctx, payload } = run;
    const recorded = this.#record(run, { failed: error });
    if (recorded !== undefined) await recorded;
    if (definition.afterFailure === undefined || !this.#records(ctx)) return;
    await bestEffort(ctx.log, 'failure not recorded', async () =>
      definition.afterFailure?.(ctx, payload, error),
    );
  }

  /** The unit's record, under the rule; undefined when there is none to write. */
  #record(run: EndingRun, outcome: UnitOutcome): Promise<void> | undefined {
    const { definition, ctx, payload } = run;
    // A run that completed records its success even when a stop came meanwhile: it did the work.
    const records = 'failed' in outcome ? this.#records(ctx) : !this.#options.dryRun;
    if (definition.countsToward === false || !records) return undefined;
    const unit = definition.countsToward(payload);
    if (unit === undefined) return undefined;
    return bestEffort(ctx.log, 'outcome not recorded', () =>
      this.#options.outcomes.record(unit, outcome, ctx.job),
    );
  }

  /** A job failed for good: the daemon tells whoever wants to hear. */
  async #failedForGood(run: EndingRun, error: unknown): Promise<void> {
    if (!this.#records(run.ctx)) return;
    await bestEffort(run.ctx.log, 'failure not told', () =>
      this.#options.outcomes.failedForGood(this.#ended(run), error),
    );
  }

  /** The one rule: a dry run changes nothing, and an aborted job did not fail on its own. */
  #records(ctx: JobContext): boolean {
    return !this.#options.dryRun && !ctx.signal.aborted;
  }

  #ended(run: EndingRun): EndedRun {
    return {
      queue: run.queue,
      job: run.ctx.job,
      payload: run.payload,
      space: run.definition.lockKey?.(run.payload),
    };
  }
}
