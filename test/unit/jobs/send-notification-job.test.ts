// The notification job's own decisions, against a webhook on a loopback port: a webhook that left
// the configuration since the job was queued is skipped, a dry run posts nothing, and a post carries
// the job's id as its delivery id, the same for each try. What a webhook's answer means (retried or
// refused) is postNotification's, in test/unit/notify/.
import { describe, expect, it } from 'vitest';
import {
  type SendNotificationServices,
  sendNotificationJob,
} from '../../../jobs/send-notification/send-notification-job.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { hookId } from '../../../src/notify/hook-id.js';
import type { NotificationEvent } from '../../../src/notify/notification-event.js';
import { fakeJobRun } from '../../support/fake-job-run.js';
import { startCannedServer } from '../api/canned-server.js';

const event: NotificationEvent = {
  kind: 'merged',
  key: 'merged/docs/cr_1',
  at: '2026-03-01T12:00:00Z',
  summary: 'merged change request #3',
  mapping: 'docs',
};

/** A webhook that answers 200, and the services of a configuration that names it. */
async function webhookWorld(dryRun = false) {
  const hook = await startCannedServer((_request, response) => response.end('ok'));
  const url = `${hook.baseUrl}/hook`;
  const config = parseConfig(JSON.stringify({ notify: [{ url }] }), 'docsync.yaml', {});
  const services: SendNotificationServices = { config, dryRun };
  return { hook, url, services };
}

const run = () => fakeJobRun({ name: 'send-notification', queue: 'notify', id: 'notify-7' });

describe('send-notification job', () => {
  it("skips a webhook that left the configuration, which it finds by its URL's hash", async () => {
    const { hook, services } = await webhookWorld();
    const gone = hookId({ url: 'https://hooks.example.com/removed' });
    const result = await sendNotificationJob.run({ ...services, ...run().run }, { hook: gone, event });
    expect(result).toEqual({ result: 'skipped', reason: 'hook-removed' });
    expect(hook.requests).toEqual([]);
  });

  it('posts nothing in a dry run', async () => {
    const { hook, url, services } = await webhookWorld(true);
    const result = await sendNotificationJob.run(
      { ...services, ...run().run },
      { hook: hookId({ url }), event },
    );
    expect(result).toEqual({ result: 'dry-run' });
    expect(hook.requests).toEqual([]);
  });

  it("posts the event with the job's id as its delivery id", async () => {
    const { hook, url, services } = await webhookWorld();
    const result = await sendNotificationJob.run(
      { ...services, ...run().run },
      { hook: hookId({ url }), event },
    );
    expect(result).toEqual({ result: 'sent', httpStatus: 200 });
    expect(hook.requests).toHaveLength(1);
    expect(hook.requests[0]?.headers).toMatchObject({
      'x-docsync-event': 'merged',
      'x-docsync-delivery': 'notify-7',
    });
  });

  it('counts toward nothing, needs only the configuration and the dry-run flag', () => {
    expect(sendNotificationJob.countsToward).toBe(false);
    expect(sendNotificationJob.needs).toEqual(['config', 'dryRun']);
  });
});
