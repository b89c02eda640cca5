// One notification to one webhook over HTTP: delivered on 2xx, refused for good on a 4xx, retried
// on a 5xx, a 429 or no answer; the webhook's URL (a secret for Slack's) never in an error.
import { describe, expect, it } from 'vitest';
import { findFreePort } from '../../../src/net/find-free-port.js';
import type { NotificationEvent } from '../../../src/notify/notification-event.js';
import { NotifyError } from '../../../src/notify/notify-error.js';
import { postNotification } from '../../../src/notify/post-notification.js';
import { startWebhookReceiver } from '../../support/webhook-receiver.js';

const event: NotificationEvent = {
  kind: 'merged',
  key: 'merged/spc_1/abc',
  at: '2026-11-25T10:00:00.000Z',
  summary: 'merged change request #3',
  mapping: 'docs',
};
const hook = (url: string) => ({ url, format: 'json' as const, events: ['merged' as const] });
const send = (url: string, timeoutMs?: number) =>
  postNotification(hook(url), event, {
    signal: new AbortController().signal,
    delivery: 'notify/abc/merged',
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  }).catch((error: unknown) => error);

describe('postNotification', () => {
  it('delivers with the event and delivery headers, unsigned without a secret', async () => {
    const receiver = await startWebhookReceiver();
    expect(await send(`${receiver.url}/hook`)).toEqual({ httpStatus: 200 });
    const [got] = receiver.received;
    expect(got?.headers).toMatchObject({
      'content-type': 'application/json',
      'x-docsync-event': 'merged',
      'x-docsync-delivery': 'notify/abc/merged',
    });
    expect(got?.headers['x-docsync-signature-256']).toBeUndefined();
    expect(got?.json).toEqual({ source: 'docsync', ...event });
  });

  it('is refused for good on a 4xx, and retried on a 5xx or a 429, the secret path never quoted', async () => {
    const receiver = await startWebhookReceiver();
    const url = `${receiver.url}/services/T0/B0/s3cr3t-webhook-key`;
    receiver.answerWith(404);
    const refused = await send(url);
    expect(refused).toBeInstanceOf(NotifyError);
    expect(refused).toMatchObject({ code: 'NOTIFY_REFUSED', retryable: false, httpStatus: 404 });
    for (const status of [503, 429]) {
      receiver.answerWith(status);
      expect(await send(url)).toMatchObject({
        code: 'NOTIFY_UNREACHABLE',
        retryable: true,
        httpStatus: status,
      });
    }
    expect(String((refused as Error).message)).toMatch(
      /^webhook [0-9a-f]{12} at 127\.0\.0\.1:\d+: merged refused with 404/,
    );
    expect(String((refused as Error).message)).not.toContain('s3cr3t');
  });

  it('is retried when nothing listens, naming the webhook by host only', async () => {
    const port = await findFreePort();
    const error = await send(`http://127.0.0.1:${port}/s3cr3t`);
    expect(error).toMatchObject({ code: 'NOTIFY_UNREACHABLE', retryable: true });
    expect(String((error as Error).message)).toContain('ECONNREFUSED');
    expect(JSON.stringify(error)).not.toContain('s3cr3t');
  });
});
