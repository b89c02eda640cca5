// send-notification: posts one event to one webhook of `notify:` (src/notify/). The webhook is
// found again by the hash of its URL: one removed from the configuration since is skipped. Retried
// with backoff by the queue when the webhook is unreachable or fails; refused (a 4xx), it fails for
// good and shows among the failed jobs of /status and `docsync status`. Nothing waits for it.
import { hookId, hookLabel } from '../../src/notify/hook-id.js';
import { postNotification } from '../../src/notify/post-notification.js';
import { defineJob } from '../define-job.js';
import type { ServicesOf } from '../job-services.js';
import { sendNotificationKind } from './send-notification-kind.js';

const NEEDS = ['config', 'dryRun'] as const;

/** What a notification touches: the webhooks of the configuration, and whether to post at all. */
export type SendNotificationServices = ServicesOf<typeof NEEDS>;

export const sendNotificationJob = defineJob(sendNotificationKind, NEEDS, {
  async run(ctx, payload) {
    const hook = ctx.config.notify.find((candidate) => hookId(candidate) === payload.hook);
    const log = ctx.log.child({ hook: payload.hook, kind: payload.event.kind });
    if (hook === undefined) {
      log.info('notification skipped: its webhook left the configuration');
      return { result: 'skipped', reason: 'hook-removed' };
    }
    if (ctx.dryRun) return { result: 'dry-run' };
    const { httpStatus } = await postNotification(hook, payload.event, {
      signal: ctx.signal,
      delivery: ctx.job.id,
    });
    log.info({ webhook: hookLabel(hook), httpStatus }, 'notification sent');
    return { result: 'sent', httpStatus };
  },
});
