// The back-off of failed work where producers queue it (src/queue/add-work.ts), on a real Redis:
// while it lasts, queuing the work gives its failed job and adds nothing, one by one and in bulk
// among other work; a start of docsync (the reset) or its end lets the work run again at once.
import type { Job } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../../src/config/load-config.js';
import { jobId } from '../../../src/queue/job-id.js';
import { defineJobKind } from '../../../src/queue/job-kind.js';
import { Queues } from '../../../src/queue/queues.js';
import { endWorkBackOff, recordWorkFailure, resetWorkBackOffs } from '../../../src/queue/work-back-offs.js';
import { failJobsUntil } from '../../support/refusing-worker.js';
import { captureLog, redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';

const prefix = uniquePrefix('work-back-off');
const redis = testRedis(prefix);
const config = parseConfig(
  `redis:\n  url: ${redisUrl()}\n  prefix: ${prefix}\nqueues:\n  attempts: 1\n`,
  'test.yaml',
  {},
);
const queues = new Queues(redis, config, captureLog().log);
afterAll(() => queues.close());
const maintain = queues.get('maintain');

const tidyKind = defineJobKind({
  name: 'tidy-space',
  queue: 'maintain',
  payload: z.object({ space: z.string() }),
  id: (payload) => jobId('tidy', payload.space),
  // A test's kind: what it does is no unit /status shows.
  countsToward: false,
});

/** Fails every job as a 401 does, until `id` has failed. */
const failJob = (id: string) =>
  failJobsUntil(
    'maintain',
    prefix,
    async () => (await maintain.getJobState(id)) === 'failed',
    `${id} to fail`,
  );

const pendingIds = async () => (await maintain.getJobs(['waiting', 'delayed'])).map((job: Job) => job.id);

describe('work that failed for good and backs off', () => {
  it('gives producers its failed job and adds nothing while the back-off lasts, alone and in bulk', async () => {
    await tidyKind.enqueue(queues, { space: 'spc_a' });
    await failJob('tidy/spc_a');
    const record = await recordWorkFailure(maintain, 'tidy/spc_a', 'tidy/spc_a', new Date(), () => 0.5);
    expect(record.failures).toBe(1);

    expect((await tidyKind.enqueue(queues, { space: 'spc_a' })).id).toBe('tidy/spc_a');
    const bulk = await tidyKind.enqueueBulk(queues, [
      { payload: { space: 'spc_b' } },
      { payload: { space: 'spc_a' } },
      { payload: { space: 'spc_c' } },
    ]);
    expect(bulk.map((job) => job.id)).toEqual(['tidy/spc_b', 'tidy/spc_a', 'tidy/spc_c']);
    expect((await pendingIds()).sort()).toEqual(['tidy/spc_b', 'tidy/spc_c']);
    await maintain.drain();

    // Its end (a completed rerun, `docsync retry`): queued again, it runs again at once.
    await endWorkBackOff(maintain, 'tidy/spc_a');
    const rerun = await tidyKind.enqueue(queues, { space: 'spc_a' });
    expect(rerun.id).toMatch(/^tidy\/spc_a\/rerun-/);
    await maintain.drain();
  });

  it('counts on from its last failure, and starts again at once after a start of docsync', async () => {
    await tidyKind.enqueue(queues, { space: 'spc_d' });
    await failJob('tidy/spc_d');
    await recordWorkFailure(maintain, 'tidy/spc_d', 'tidy/spc_d', new Date(), () => 0.5);
    const second = await recordWorkFailure(maintain, 'tidy/spc_d', 'tidy/spc_d', new Date(), () => 0.5);
    expect(second.failures).toBe(2);
    expect((await tidyKind.enqueue(queues, { space: 'spc_d' })).id).toBe('tidy/spc_d');

    await resetWorkBackOffs(queues, new Date(Date.now() + 1));
    const rerun = await tidyKind.enqueue(queues, { space: 'spc_d' });
    expect(rerun.id).toMatch(/^tidy\/spc_d\/rerun-/);
    // A failure after the start counts from one.
    const after = await recordWorkFailure(
      maintain,
      'tidy/spc_d',
      String(rerun.id),
      new Date(Date.now() + 10),
      () => 0.5,
    );
    expect(after.failures).toBe(1);
    await maintain.drain();
  });
});
