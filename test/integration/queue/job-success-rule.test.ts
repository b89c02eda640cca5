// The runner tells a definition its run went through (onSuccess), after it completed and never in a
// dry run: the mapping's failures in a row that onFailure counted end there.
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
import { recordMappingFailure, recordMappingSuccess } from '../../../src/state/failure-of.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const payload = z.object({ id: z.string(), fail: z.boolean() });

function runner(label: string, dryRun: boolean) {
  const prefix = uniquePrefix(label);
  const config = parseConfig(
    `redis:\n  url: ${redisUrl()}\n  prefix: ${prefix}\nqueues:\n  attempts: 1\ndryRun: ${dryRun}\nservice:\n  baseUrl: http://127.0.0.1:9/v1\n  token: test-token-not-used\nmappings:\n  - name: docs\n    space: spc\n    git: { repo: https://example.invalid/docs.git, branch: main }\n`,
    'test.yaml',
    {},
  );
  const successes: string[] = [];
  const job = defineJob({
    name: 'polls',
    queue: 'maintain',
    payload,
    async run(_ctx, data) {
      if (data.fail) throw new DocsyncError('MAPPING_UNKNOWN', 'the service refused');
      return { result: 'polled' };
    },
    onFailure: (ctx, _data, error) => recordMappingFailure(ctx, 'docs', error),
    async onSuccess(ctx, data, result) {
      successes.push(`${data.id}:${result.result}`);
      await recordMappingSuccess(ctx, 'docs');
    },
  });
  const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const { log } = captureLog();
  const queues = new Queues(connection, config, log);
  const stores = memoryStores();
  const instance = new JobRunner({
    definitions: [job],
    connection,
    config,
    deps: createJobServices({ config, stores, queues, log }),
    log,
    stopSignal: new AbortController().signal,
  });
  instance.start();
  const producer = new Queues(testRedis(prefix), config, captureLog().log);
  afterAll(async () => {
    await instance.close();
    await queues.close();
    await producer.close();
    await connection.quit();
  });
  const queue = producer.get('maintain');
  const settled = async (id: string, fail: boolean) => {
    await queue.add('polls', { id, fail }, { jobId: id });
    await waitFor(
      async () => ['completed', 'failed'].includes(await queue.getJobState(id)),
      `job ${id} to finish`,
    );
  };
  return { settled, successes, stores };
}

describe('the job success rule', () => {
  const live = runner('success-rule', false);
  const dry = runner('success-rule-dry', true);

  it('ends the failures in a row of the job once it runs through', async () => {
    await live.settled('f1', true);
    await live.settled('f2', true);
    expect((await live.stores.mappings.get('docs')).failures?.polls?.count).toBe(2);
    await live.settled('ok1', false);
    expect(live.successes).toEqual(['ok1:polled']);
    expect(await live.stores.mappings.get('docs')).toEqual({});
  });

  it('tells nothing in a dry run', async () => {
    await dry.settled('dry-ok', false);
    expect(dry.successes).toEqual([]);
  });
});
