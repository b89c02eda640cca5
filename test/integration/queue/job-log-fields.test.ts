// The fields of a job's log lines, as a log shipper reads them: the runner binds what it knows (the
// queue, the job, its lock key), the job binds the rest (space, change request, revision), and no
// line carries a key twice. Read from the lines as written: JSON.parse would hide a duplicate.
import { describe, expect, it } from 'vitest';
import { checkLinksKind } from '../../../jobs/check-links/check-links-kind.js';
import { JOBS } from '../../../jobs/registry.js';
import { userIdOf } from '../../../src/emulator/create-emulator.js';
import { duplicateJsonKeys } from '../../support/duplicate-json-keys.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import {
  addChangeRequest,
  addRevision,
  createTestSpace,
  startTestEmulator,
  testPage,
} from '../../support/start-test-emulator.js';
import { uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

describe('the log lines of a job', () => {
  it('carry each field once: the lock key from the runner, the space and change request from the job', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator);
    const cr = addChangeRequest(emulator.emulator, space, userIdOf('Admin'));
    const revision = addRevision(emulator.emulator, { spaceId: space, changeRequestId: cr.id }, [
      { ...testPage('page_intro', 'intro'), markdown: '# Intro\n\nSee [gone](gone.md).\n' },
    ]);
    const prefix = uniquePrefix('job-log-fields');
    const daemon = await startTestDaemon({ prefix, jobs: JOBS, service: emulator });

    // A change request's check runs under the space's lock, and its job logs with its own fields.
    const job = await checkLinksKind.enqueue(daemon.queues, {
      space,
      changeRequest: cr.id,
      revision: revision.id,
      comment: false,
    });
    const id = job.id ?? '';
    const queue = daemon.queues.get('links');
    await waitFor(async () => {
      const state = await queue.getJobState(id);
      if (state === 'failed')
        throw new Error(`check-links failed: ${(await queue.getJob(id))?.failedReason}`);
      return state === 'completed' ? true : undefined;
    }, 'the link check');
    // The outcome line is written before BullMQ marks the job completed: it is there now.
    const texts = daemon.texts.filter((text) => (JSON.parse(text) as { job?: unknown }).job === id);

    const messages = texts.map((text) => (JSON.parse(text) as { msg?: unknown }).msg);
    expect(messages).toEqual(expect.arrayContaining(['link broken', 'job completed']));
    expect(texts.map((text) => ({ text, duplicates: duplicateJsonKeys(text) }))).toEqual(
      texts.map((text) => ({ text, duplicates: [] })),
    );
    const broken = daemon.lines.find((line) => line.job === id && line.msg === 'link broken');
    expect(broken).toMatchObject({
      lockKey: space,
      space,
      cr: cr.id,
      revision: revision.id,
      target: 'gone.md',
    });
    const completed = daemon.lines.find((line) => line.job === id && line.msg === 'job completed');
    expect(completed).toMatchObject({ lockKey: space, queue: 'links', name: 'check-links' });
  });
});
