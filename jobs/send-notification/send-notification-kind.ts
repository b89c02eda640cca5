// send-notification: one event told to one webhook of `notify:`. Keyed by webhook and event, so
// that the same happening queued twice while its job waits is one message. On its own queue: a slow
// or failing webhook never holds up the sync, and its retries wait as delayed jobs.
import { z } from 'zod';
import { notificationEventSchema } from '../../src/notify/notification-event.js';
import { jobId } from '../../src/queue/job-id.js';
import { defineJobKind } from '../../src/queue/job-kind.js';

export const sendNotificationPayload = z.object({
  /** The webhook, by the hash of its URL (src/notify/hook-id.ts): the URL may be a secret. */
  hook: z.string().regex(/^[0-9a-f]{12}$/),
  event: notificationEventSchema,
});

export type SendNotificationPayload = z.infer<typeof sendNotificationPayload>;

export const sendNotificationKind = defineJobKind({
  name: 'send-notification',
  queue: 'notify',
  payload: sendNotificationPayload,
  // A webhook that fails is not a failure of the docs it tells about (and telling of it would loop):
  // it shows among failed jobs of /status and `docsync status`, retried with backoff.
  countsToward: false,
  id: (payload) => jobId('notify', payload.hook, payload.event.key),
});
