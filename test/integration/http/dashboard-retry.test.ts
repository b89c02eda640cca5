import { describe, expect, it } from 'vitest';
import { updateChangeRequestKind } from '../../../jobs/update-change-request/update-change-request-kind.js';
import { failJobsUntil } from '../../support/refusing-worker.js';
import { startTestDaemon, type TestDaemon } from '../../support/start-test-daemon.js';
import { uniquePrefix } from '../../support/test-context.js';

const WORK = { mapping: 'docs', space: 'spc_1', changeRequest: 'cr_1', revision: 'rev_1' };
const FIRST_RUN = 'update/spc_1/cr_1/rev_1';

/** Fails, as a 401 does, every job the maintain queue holds (the daemon runs no processor). */
async function failWaiting(daemon: TestDaemon, prefix: string): Promise<void> {
  const maintain = daemon.queues.get('maintain');
  await failJobsUntil(
    'maintain',
    prefix,
    async () => (await maintain.getWaitingCount()) + (await maintain.getActiveCount()) === 0,
    'the waiting jobs to fail',
  );
}

async function startDaemon(readOnly: boolean) {
  const prefix = uniquePrefix(readOnly ? 'dashboard-ro' : 'dashboard-rw');
  const daemon = await startTestDaemon({
    prefix,
    yaml: `  dashboard: { readOnly: ${readOnly} }\nqueues: { attempts: 1 }\n`,
  });
  await updateChangeRequestKind.enqueue(daemon.queues, WORK);
  await failWaiting(daemon, prefix);
  return { daemon, prefix, maintain: daemon.queues.get('maintain') };
}

const retryJob = (daemon: TestDaemon, id: string) =>
  fetch(`${daemon.httpAddress}/ui/api/queues/maintain/${encodeURIComponent(id)}/retry`, { method: 'PUT' });

describe("the dashboard's retry", () => {
  it('runs a failed job again when the dashboard is not read-only, and producers then get that job', async () => {
    const { daemon, maintain } = await startDaemon(false);
    expect(await maintain.getJobState(FIRST_RUN)).toBe('failed');

    const response = await retryJob(daemon, FIRST_RUN);
    expect(response.status).toBe(204);
    expect(await maintain.getJobState(FIRST_RUN)).toBe('waiting');
    expect((await updateChangeRequestKind.enqueue(daemon.queues, WORK)).id).toBe(FIRST_RUN);
    expect(await maintain.getWaitingCount()).toBe(1);
  });

  it('retries every failed job of a queue once per piece of work', async () => {
    const { daemon, prefix, maintain } = await startDaemon(false);
    const rerun = await updateChangeRequestKind.enqueue(daemon.queues, WORK);
    await failWaiting(daemon, prefix);
    expect(await maintain.getFailedCount()).toBe(2);

    const response = await fetch(`${daemon.httpAddress}/ui/api/queues/maintain/retry/failed`, {
      method: 'PUT',
    });
    expect(response.status).toBe(200);
    const waiting = await maintain.getWaiting();
    expect(waiting).toHaveLength(1);
    expect(await maintain.getFailedCount()).toBe(1);
    expect([FIRST_RUN, rerun.id]).toContain(waiting[0]?.id);
  });

  it('is refused when the dashboard is read-only, and the job stays failed', async () => {
    const { daemon, maintain } = await startDaemon(true);
    const response = await retryJob(daemon, FIRST_RUN);
    expect(response.status).toBe(405);
    expect(await maintain.getJobState(FIRST_RUN)).toBe('failed');
  });
});
