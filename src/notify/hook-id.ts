// A webhook's name in job payloads, job ids and logs: a hash of its URL. The URL itself may be a
// secret (Slack's carry their key in the path) and never leaves the configuration.
import { createHash } from 'node:crypto';
import type { NotifyHook } from './notify-config-schema.js';

export function hookId(hook: Pick<NotifyHook, 'url'>): string {
  return createHash('sha256').update(hook.url).digest('hex').slice(0, 12);
}

/** What logs and errors say of a webhook: its host and id, never its path or query. */
export function hookLabel(hook: Pick<NotifyHook, 'url'>): string {
  return `webhook ${hookId(hook)} at ${new URL(hook.url).host}`;
}
