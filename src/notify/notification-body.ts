// The bytes a webhook receives for an event: Slack-compatible `{"text": ...}` (Slack, Mattermost,
// Rocket.Chat, Teams' incoming-webhook workflows) or docsync's own JSON, the event as it is.
import type { NotificationEvent } from './notification-event.js';
import type { NotifyHook } from './notify-config-schema.js';

const TITLES: Record<NotificationEvent['kind'], string> = {
  merged: 'merged',
  failed: 'failed',
  'broken-links': 'broken links',
  conflict: 'conflict with git',
  failing: 'failing',
  recovered: 'recovered',
};

export function notificationBody(hook: Pick<NotifyHook, 'format'>, event: NotificationEvent): string {
  if (hook.format === 'json') return JSON.stringify({ source: 'docsync', ...event });
  return JSON.stringify({ text: slackText(event) });
}

/** The message as Slack's mrkdwn: a headline, the hint, then the broken links one per line. */
export function slackText(event: NotificationEvent): string {
  const where = event.mapping === undefined ? '' : ` ${escapeSlack(event.mapping)}:`;
  const lines = [`*docsync* ${TITLES[event.kind]} —${where} ${escapeSlack(event.summary)}`];
  if (event.hint !== undefined && event.hint !== '') lines.push(`_${escapeSlack(event.hint)}_`);
  for (const link of event.links ?? []) {
    const place =
      link.file === undefined ? link.page : `${link.file}${link.line === undefined ? '' : `:${link.line}`}`;
    lines.push(`• \`${escapeSlack(place ?? '?')}\` → ${escapeSlack(link.target)}`);
  }
  const more = (event.newlyBroken ?? 0) - (event.links?.length ?? 0);
  if (more > 0) lines.push(`… and ${more} more`);
  return lines.join('\n');
}

/** Slack reads `<`, `>` and `&` as markup: text from git and the service must stay text. */
function escapeSlack(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
