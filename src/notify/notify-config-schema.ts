// The `notify:` list of the configuration: webhooks docsync tells about what happened, each with
// its format (Slack-compatible `{text}`, or docsync's JSON), an optional HMAC-SHA256 secret, the
// events it wants and, optionally, the mappings it is for.
import { z } from 'zod';

/** What a webhook can be told about (src/notify/notification-event.ts says when each happens). */
export const NOTIFY_EVENTS = [
  'merged',
  'failed',
  'broken-links',
  'conflict',
  'failing',
  'recovered',
] as const;

export type NotifyEventKind = (typeof NOTIFY_EVENTS)[number];

export const notifyHookSchema = z.strictObject({
  /** Where the POST goes. Slack's webhook URLs are secrets themselves: docsync logs only their host. */
  url: z.url({ protocol: /^https?$/, error: 'notify[].url must be an http(s) URL' }),
  /** `slack`: `{"text": ...}`, which Slack, Mattermost, Rocket.Chat and Teams' workflows accept; `json`: the event. */
  format: z.enum(['slack', 'json']).default('json'),
  /** Signs each body: header `X-Docsync-Signature-256: sha256=<hex HMAC-SHA256 of the body>`. */
  secret: z.string().min(16, 'use a secret of at least 16 characters').optional(),
  events: z
    .array(z.enum(NOTIFY_EVENTS))
    .min(1)
    .default([...NOTIFY_EVENTS]),
  /** Only these mappings' events; all mappings (and the failures of specs) when not given. */
  mappings: z.array(z.string().min(1)).min(1).optional(),
});

export type NotifyHook = z.output<typeof notifyHookSchema>;

/** Each mapping a webhook names must be one of the configuration's. */
export function checkNotifyMappings(
  config: { notify: readonly (NotifyHook | undefined)[]; names: ReadonlySet<string> },
  ctx: z.RefinementCtx,
): void {
  const { names } = config;
  config.notify.forEach((hook, i) => {
    hook?.mappings?.forEach((name, j) => {
      if (!names.has(name))
        ctx.addIssue({
          code: 'custom',
          path: ['notify', i, 'mappings', j],
          message: `no mapping is named "${name}": use one of ${[...names].join(', ') || '(none configured)'}`,
        });
    });
  });
}
