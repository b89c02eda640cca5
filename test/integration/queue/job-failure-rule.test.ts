// The runner's one failure rule: a failed attempt is recorded toward the unit its kind counts toward
// (countsToward), once per failed attempt and after the retry decision, then the job's afterFailure
// runs under the same rule; never in a dry run nor for a job aborted under it (shutdown, lost lock).
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../../../jobs/define-job.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { createJobServices } from '../../../src/daemon/create-job-services.js';
import { runnerPorts } from '../../../src/daemon/runner-ports.js';
import { DocsyncError } from '../../../src/errors/docsync-error.js';
import { defineJobKind } from '../../../src/queue/job-kind.js';
import type { JobOutcomes } from '../../../src/queue/job-outcomes.js';
import { JobRunner } from '../../../src/queue/job-runner.js';
import { Queues } from '../../../src/queue/queues.js';
import type { UnitOutcome, WorkUnit } from '../../../src/queue/work-unit.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const failurePayload = z.object({
  id: z.string(),
  mapping: z.string(),
  kind: z.enum(['permanent', 'transient', 'aborted', 'after-failure-fails']),
});
type FailureKind = z.infer<typeof failurePayload>['kind'];

/** A job whose failures count toward the mapping its payload names. */
const failsKind = defineJobKind({
  name: 'fails',
  queue: 'maintain',
  payload: failurePayload,
  id: () => undefined,
  countsToward: (payload) => ({ mapping: payload.mapping }),
});

/** The same failures, of a kind whose outcomes count toward nothing (as the notifications' own). */
const uncountedKind = defineJobKind({
  name: 'fails-uncounted',
  queue: 'maintain',
  payload: failurePayload,
  id: () => undefined,
  countsToward: false,
});

/** One runner of its own (own prefix, own stop signal) with jobs that fail as their payload says. */
function failingRunner(label: string, options: { dryRun: boolean }) {
  const prefix = uniquePrefix(label);
  const redis = testRedis(prefix);
  const mappings = ['docs', 'flaky', 'unrecordable', 'after-failure', 'aborted']
    .map(
      (name) =>
        `  - name: ${name}\n    space: spc-${name}\n    git: { repo: https://example.invalid/${name}.git, branch: main }\n`,
    )
    .join('');
  const config = parseConfig(
    `redis:\n  url: ${redisUrl()}\n  prefix: ${prefix}\nqueues:\n  attempts: 3\n  backoff: 100ms\ndryRun: ${options.dryRun}\nservice:\n  baseUrl: http://127.0.0.1:9/v1\n  token: test-token-not-used\nmappings:\n${mappings}`,
    'test.yaml',
    {},
  );
  const stop = new AbortController();
  /** Each call of afterFailure, in order. */
  const afterFailures: Array<{ id: string; attempt: number; error: unknown }> = [];
  /** Each outcome the runner asked the daemon to record, in order. */
  const recorded: Array<{ unit: WorkUnit; outcome: UnitOutcome; job: string }> = [];
  const implementation = {
    async run(ctx: { signal: AbortSignal }, payload: z.infer<typeof failurePayload>): Promise<never> {
      if (payload.kind === 'permanent') throw new DocsyncError('MAPPING_UNKNOWN', 'the space does not exist');
      if (payload.kind === 'aborted') {
        // Stands for a shutdown while the job runs: it stops because its signal says so.
        stop.abort(new Error('docsync is stopping'));
        throw ctx.signal.reason;
      }
      throw Object.assign(new Error('connection reset'), { code: 'ECONNRESET' });
    },
    async afterFailure(
      ctx: { job: { attempt: number } },
      payload: z.infer<typeof failurePayload>,
      error: unknown,
    ): Promise<void> {
      afterFailures.push({ id: payload.id, attempt: ctx.job.attempt, error });
      if (payload.kind === 'after-failure-fails') throw new Error('commit status not posted');
    },
  };
  const fails = defineJob(failsKind, [], implementation);
  const uncounted = defineJob(uncountedKind, [], implementation);
  const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const captured = captureLog();
  const queues = new Queues(connection, config, captured.log);
  const stores = memoryStores();
  const ports = runnerPorts(createJobServices({ config, stores, queues, log: captured.log }));
  // The daemon's recorder, watched; a store that cannot be reached for one mapping.
  const outcomes: JobOutcomes = {
    ...ports.outcomes,
    async record(unit, outcome, job) {
      recorded.push({ unit, outcome, job: job.name });
      if ('mapping' in unit && unit.mapping === 'unrecordable') throw new Error('state store unreachable');
      await ports.outcomes.record(unit, outcome, job);
    },
  };
  const instance = new JobRunner({
    definitions: [fails, uncounted],
    connection,
    config,
    ...ports,
    outcomes,
    log: captured.log,
    stopSignal: stop.signal,
  });
  instance.start();
  const producer = new Queues(redis, config, captureLog().log);
  const queue = producer.get('maintain');
  afterAll(async () => {
    await instance.close();
    await queues.close();
    await producer.close();
    await connection.quit();
  });
  const failed = async (id: string) => {
    await waitFor(async () => (await queue.getJobState(id)) === 'failed', `job ${id} to fail`, 10_000);
    return queue.getJob(id);
  };
  const add = (id: string, kind: FailureKind, mapping = 'docs', name = 'fails') =>
    queue.add(name, { id, mapping, kind }, { jobId: id });
  const recordedFor = (mapping: string) =>
    recorded.filter((entry) => 'mapping' in entry.unit && entry.unit.mapping === mapping);
  return { add, failed, afterFailures, recorded, recordedFor, stores, lines: captured.lines };
}

describe('the job failure rule', () => {
  const live = failingRunner('failure-rule', { dryRun: false });
  const dry = failingRunner('failure-rule-dry', { dryRun: true });

  it('records a permanent failure once toward the mapping of its kind, in the state /status reads', async () => {
    await live.add('perm-1', 'permanent');
    await live.failed('perm-1');
    expect(live.recordedFor('docs')).toEqual([
      {
        unit: { mapping: 'docs' },
        outcome: { failed: expect.objectContaining({ code: 'MAPPING_UNKNOWN' }) },
        job: 'fails',
      },
    ]);
    const state = await live.stores.mappings.get('docs');
    expect(state.lastError).toMatchObject({ code: 'MAPPING_UNKNOWN', message: 'the space does not exist' });
    expect(state.failures?.fails?.count).toBe(1);
    expect(live.afterFailures.filter((call) => call.id === 'perm-1')).toEqual([
      { id: 'perm-1', attempt: 1, error: expect.objectContaining({ code: 'MAPPING_UNKNOWN' }) },
    ]);
  });

  it('records each failed attempt of a job that is tried again, and calls afterFailure after each', async () => {
    await live.add('flaky-1', 'transient', 'flaky');
    await live.failed('flaky-1');
    expect(live.recordedFor('flaky')).toHaveLength(3);
    expect((await live.stores.mappings.get('flaky')).failures?.fails).toMatchObject({
      count: 3,
      last: { code: 'FAILED', message: 'connection reset' },
    });
    expect(live.afterFailures.filter((call) => call.id === 'flaky-1').map((call) => call.attempt)).toEqual([
      1, 2, 3,
    ]);
  });

  it('keeps no state for a mapping that left the configuration, and still calls afterFailure', async () => {
    await live.add('gone-1', 'permanent', 'gone');
    await live.failed('gone-1');
    expect(live.recordedFor('gone')).toHaveLength(1);
    expect(await live.stores.mappings.get('gone')).toEqual({});
    expect(live.afterFailures.some((call) => call.id === 'gone-1')).toBe(true);
  });

  it('logs a failure it could not record, and fails the job with its own error', async () => {
    await live.add('unrec-1', 'transient', 'unrecordable');
    const job = await live.failed('unrec-1');
    expect(job?.failedReason).toBe('connection reset');
    expect(live.lines.filter((line) => line.msg === 'outcome not recorded')).toHaveLength(3);
    // What the job changes besides its record is not held back by it.
    expect(live.afterFailures.filter((call) => call.id === 'unrec-1')).toHaveLength(3);
  });

  it('logs an afterFailure that failed, and fails the job with its own error, its failure recorded', async () => {
    await live.add('after-1', 'after-failure-fails', 'after-failure');
    const job = await live.failed('after-1');
    expect(job?.failedReason).toBe('connection reset');
    expect(live.lines.filter((line) => line.msg === 'failure not recorded')).toHaveLength(3);
    expect((await live.stores.mappings.get('after-failure')).failures?.fails?.count).toBe(3);
  });

  it('records nothing for a kind whose outcomes count toward nothing, and still calls afterFailure', async () => {
    await live.add('uncounted-1', 'permanent', 'docs', 'fails-uncounted');
    await live.failed('uncounted-1');
    expect(live.recorded.filter((entry) => entry.job === 'fails-uncounted')).toEqual([]);
    expect(live.afterFailures.filter((call) => call.id === 'uncounted-1')).toHaveLength(1);
  });

  it('records nothing and calls no afterFailure in a dry run', async () => {
    await dry.add('dry-perm', 'permanent');
    await dry.add('dry-flaky', 'transient');
    await dry.failed('dry-perm');
    await dry.failed('dry-flaky');
    expect(dry.recorded).toEqual([]);
    expect(dry.afterFailures).toEqual([]);
    expect(await dry.stores.mappings.get('docs')).toEqual({});
  });

  // Last: the stop signal stays aborted for this runner once it fired.
  it('records nothing and calls no afterFailure for a job aborted under it', async () => {
    const before = live.afterFailures.length;
    await live.add('abort-1', 'aborted', 'aborted');
    await live.failed('abort-1');
    expect(live.recordedFor('aborted')).toEqual([]);
    expect(live.afterFailures.slice(before)).toEqual([]);
    expect(await live.stores.mappings.get('aborted')).toEqual({});
  });
});
