// The runner records a run that went through toward the unit its kind counts toward, after it
// completed and never in a dry run: the mapping's failures in a row of that job end there. A run
// that did none of its unit's work (`counted: false`) ends nothing.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../../../jobs/define-job.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { createJobServices } from '../../../src/daemon/create-job-services.js';
import { runnerPorts } from '../../../src/daemon/runner-ports.js';
import { DocsyncError } from '../../../src/errors/docsync-error.js';
import type { JobResult } from '../../../src/queue/job-definition.js';
import { defineJobKind } from '../../../src/queue/job-kind.js';
import { JobRunner } from '../../../src/queue/job-runner.js';
import { Queues } from '../../../src/queue/queues.js';
import type { UnitOutcome, WorkUnit } from '../../../src/queue/work-unit.js';
import { failureOf } from '../../../src/state/failure-of.js';
import { memoryStores } from '../../../src/state/memory-stores.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const pollsKind = defineJobKind({
  name: 'polls',
  queue: 'maintain',
  payload: z.object({ id: z.string(), ends: z.enum(['failed', 'polled', 'waited']) }),
  id: () => undefined,
  countsToward: () => ({ mapping: 'docs' }),
});

const polls = defineJob(pollsKind, [], {
  async run(_ctx, data): Promise<JobResult> {
    if (data.ends === 'failed') throw new DocsyncError('MAPPING_UNKNOWN', 'the service refused');
    // A tick that only waited out its jitter: none of the mapping's work was done.
    if (data.ends === 'waited') return { result: 'delayed', counted: false };
    return { result: 'polled' };
  },
});

function runner(label: string, dryRun: boolean) {
  const prefix = uniquePrefix(label);
  const config = parseConfig(
    `redis:\n  url: ${redisUrl()}\n  prefix: ${prefix}\nqueues:\n  attempts: 1\ndryRun: ${dryRun}\nservice:\n  baseUrl: http://127.0.0.1:9/v1\n  token: test-token-not-used\nmappings:\n  - name: docs\n    space: spc\n    git: { repo: https://example.invalid/docs.git, branch: main }\n`,
    'test.yaml',
    {},
  );
  const connection = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  const { log } = captureLog();
  const queues = new Queues(connection, config, log);
  const stores = memoryStores();
  const ports = runnerPorts(createJobServices({ config, stores, queues, log }));
  /** Each outcome the runner asked the daemon to record, in order. */
  const recorded: Array<{ unit: WorkUnit; outcome: UnitOutcome }> = [];
  const instance = new JobRunner({
    definitions: [polls],
    connection,
    config,
    ...ports,
    outcomes: {
      ...ports.outcomes,
      async record(unit, outcome, job) {
        recorded.push({ unit, outcome });
        await ports.outcomes.record(unit, outcome, job);
      },
    },
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
  const settled = async (id: string, ends: 'failed' | 'polled' | 'waited') => {
    await queue.add('polls', { id, ends }, { jobId: id });
    await waitFor(
      async () => ['completed', 'failed'].includes(await queue.getJobState(id)),
      `job ${id} to finish`,
    );
  };
  return { settled, recorded, stores };
}

describe('the job success rule', () => {
  const live = runner('success-rule', false);
  const dry = runner('success-rule-dry', true);

  it('ends the failures in a row of the job once it runs through', async () => {
    await live.settled('f1', 'failed');
    await live.settled('f2', 'failed');
    expect((await live.stores.mappings.get('docs')).failures?.polls?.count).toBe(2);
    await live.settled('ok1', 'polled');
    expect(live.recorded.at(-1)).toEqual({ unit: { mapping: 'docs' }, outcome: { succeeded: true } });
    expect(await live.stores.mappings.get('docs')).toEqual({});
  });

  it('ends nothing for a run that did none of its work', async () => {
    await live.settled('f3', 'failed');
    const before = live.recorded.length;
    await live.settled('waited1', 'waited');
    expect(live.recorded.slice(before)).toEqual([]);
    expect((await live.stores.mappings.get('docs')).failures?.polls?.count).toBe(1);
    await live.settled('ok2', 'polled');
    expect(await live.stores.mappings.get('docs')).toEqual({});
  });

  it('records nothing in a dry run: failures in a row from before stay', async () => {
    await dry.stores.mappings.recordFailure(
      'docs',
      'polls',
      failureOf(new Error('the service refused'), new Date()),
    );
    await dry.settled('dry-ok', 'polled');
    expect(dry.recorded).toEqual([]);
    expect((await dry.stores.mappings.get('docs')).failures?.polls?.count).toBe(1);
  });
});
