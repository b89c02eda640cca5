// The runner's one failure rule: a definition's onFailure is called once per failed attempt, after
// the retry decision, and never in a dry run nor for a job aborted under it (shutdown, lost lock).
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../../src/config/load-config.js';
import { createJobServices } from '../../../src/daemon/create-job-services.js';
import { DocsyncError } from '../../../src/errors/docsync-error.js';
import { defineJob } from '../../../src/queue/job-definition.js';
import { JobRunner } from '../../../src/queue/job-runner.js';
import { Queues } from '../../../src/queue/queues.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { recordMappingFailure } from '../../../src/state/failure-of.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const failurePayload = z.object({
  id: z.string(),
  mapping: z.string(),
  kind: z.enum(['permanent', 'transient', 'aborted', 'unrecordable']),
});

/** One runner of its own (own prefix, own stop signal) with a job that fails as its payload says. */
function failingRunner(label: string, options: { dryRun: boolean }) {
  const prefix = uniquePrefix(label);
  const redis = testRedis(prefix);
  const config = parseConfig(
    `redis:\n  url: ${redisUrl()}\n  prefix: ${prefix}\nqueues:\n  attempts: 3\n  backoff: 100ms\ndryRun: ${options.dryRun}\nservice:\n  baseUrl: http://127.0.0.1:9/v1\n  token: test-token-not-used\nmappings:\n  - name: docs\n    space: spc\n    git: { repo: https://example.invalid/docs.git, branch: main }\n`,
    'test.yaml',
    {},
  );
  const stop = new AbortController();
  const calls: Array<{ id: string; attempt: number; error: unknown }> = [];
  const fails = defineJob({
    name: 'fails',
    queue: 'maintain',
    payload: failurePayload,
    async run(ctx, payload) {
      if (payload.kind === 'permanent') throw new DocsyncError('MAPPING_UNKNOWN', 'the space does not exist');
      if (payload.kind === 'aborted') {
        // Stands for a shutdown while the job runs: it stops because its signal says so.
        stop.abort(new Error('docsync is stopping'));
        throw ctx.signal.reason;
      }
      throw Object.assign(new Error('connection reset'), { code: 'ECONNRESET' });
    },
    async onFailure(ctx, payload, error) {
      calls.push({ id: payload.id, attempt: ctx.job.attempt, error });
      if (payload.kind === 'unrecordable') throw new Error('state store unreachable');
      await recordMappingFailure(ctx, payload.mapping, error);
    },
  });
  const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const captured = captureLog();
  const queues = new Queues(connection, config, captured.log);
  const stores = memoryStores();
  const instance = new JobRunner({
    definitions: [fails],
    connection,
    config,
    deps: createJobServices({ config, stores, queues, log: captured.log }),
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
  const failed = (id: string) =>
    waitFor(async () => (await queue.getJobState(id)) === 'failed', `job ${id} to fail`, 10_000);
  const add = (id: string, kind: z.infer<typeof failurePayload>['kind'], mapping = 'docs') =>
    queue.add('fails', { id, mapping, kind }, { jobId: id });
  return { add, failed, calls, stores, lines: captured.lines };
}

describe('the job failure rule', () => {
  const live = failingRunner('failure-rule', { dryRun: false });
  const dry = failingRunner('failure-rule-dry', { dryRun: true });

  it('records a permanent failure once, in the state /status reads', async () => {
    await live.add('perm-1', 'permanent');
    await live.failed('perm-1');
    expect(live.calls.filter((call) => call.id === 'perm-1')).toEqual([
      { id: 'perm-1', attempt: 1, error: expect.objectContaining({ code: 'MAPPING_UNKNOWN' }) },
    ]);
    expect((await live.stores.mappings.get('docs')).lastError).toMatchObject({
      code: 'MAPPING_UNKNOWN',
      message: 'the space does not exist',
    });
  });

  it('records each failed attempt of a job that is tried again', async () => {
    await live.add('flaky-1', 'transient');
    await live.failed('flaky-1');
    expect(live.calls.filter((call) => call.id === 'flaky-1').map((call) => call.attempt)).toEqual([1, 2, 3]);
  });

  it('records nothing for a mapping that left the configuration', async () => {
    await live.add('gone-1', 'permanent', 'gone');
    await live.failed('gone-1');
    expect(live.calls.some((call) => call.id === 'gone-1')).toBe(true);
    expect(await live.stores.mappings.get('gone')).toEqual({});
  });

  it('logs a failure onFailure could not record, and fails the job with its own error', async () => {
    await live.add('unrec-1', 'unrecordable');
    await live.failed('unrec-1');
    expect(live.lines.some((line) => line.msg === 'failure not recorded')).toBe(true);
    expect(live.calls.filter((call) => call.id === 'unrec-1')).toHaveLength(3);
  });

  it('records nothing in a dry run', async () => {
    await dry.add('dry-perm', 'permanent');
    await dry.add('dry-flaky', 'transient');
    await dry.failed('dry-perm');
    await dry.failed('dry-flaky');
    expect(dry.calls).toEqual([]);
    expect(await dry.stores.mappings.get('docs')).toEqual({});
  });

  // Last: the stop signal stays aborted for this runner once it fired.
  it('records nothing for a job aborted under it', async () => {
    const before = live.calls.length;
    await live.add('abort-1', 'aborted');
    await live.failed('abort-1');
    expect(live.calls.slice(before)).toEqual([]);
  });
});
