// Queues an event for each webhook of `notify:` that wants it: its kind among the hook's events,
// and its mapping among the hook's mappings when it names some. Never throws: a notification that
// cannot be queued is a warning, and the work that made the event goes on.

import { sendNotificationKind } from '../../jobs/send-notification/send-notification-kind.js';
import type { Logger } from '../log/create-logger.js';
import type { QueueTarget } from '../queue/job-kind.js';
import { hookId } from './hook-id.js';
import type { NotificationEvent } from './notification-event.js';
import type { NotifyEventKind, NotifyHook } from './notify-config-schema.js';

export type Notify = (event: NotificationEvent) => Promise<void>;

export function hooksWanting(hooks: readonly NotifyHook[], kind: NotifyEventKind, mapping?: string) {
  return hooks.filter(
    (hook) =>
      hook.events.includes(kind) &&
      (hook.mappings === undefined || (mapping !== undefined && hook.mappings.includes(mapping))),
  );
}

/** Whether any webhook wants events of `kind`: what is not wanted is not even worked out. */
export function anyHookWants(hooks: readonly NotifyHook[], kind: NotifyEventKind): boolean {
  return hooks.some((hook) => hook.events.includes(kind));
}

export function notifier(queues: QueueTarget, hooks: readonly NotifyHook[], log: Logger): Notify {
  return async (event) => {
    const wanting = hooksWanting(hooks, event.kind, event.mapping);
    if (wanting.length === 0) return;
    try {
      await sendNotificationKind.enqueueBulk(
        queues,
        wanting.map((hook) => ({ payload: { hook: hookId(hook), event } })),
      );
    } catch (error) {
      log.warn({ err: error, kind: event.kind, mapping: event.mapping }, 'notification not queued');
    }
  };
}
