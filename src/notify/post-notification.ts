// The one I/O of notifications: POST the body to the webhook with undici, a deadline, and the
// answer read (capped) and dropped. 2xx is delivered; a 4xx other than 408 and 429 is refused for
// good; anything else (no answer, 408, 429, 5xx) is retried by the job.
import { request } from 'undici';
import { readCappedBody } from '../api/read-capped-body.js';
import { hookLabel } from './hook-id.js';
import { notificationBody } from './notification-body.js';
import type { NotificationEvent } from './notification-event.js';
import type { NotifyHook } from './notify-config-schema.js';
import { NotifyError } from './notify-error.js';
import { SIGNATURE_HEADER, signNotification } from './sign-notification.js';

export const NOTIFY_TIMEOUT_MS = 10_000;

/** Chat webhooks answer `ok` or a few bytes of JSON; what is read of more is thrown away. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface PostNotificationOptions {
  signal: AbortSignal;
  /** The delivery's id, sent as `X-Docsync-Delivery`: the same for each try of one notification. */
  delivery: string;
  timeoutMs?: number;
}

export async function postNotification(
  hook: NotifyHook,
  event: NotificationEvent,
  options: PostNotificationOptions,
): Promise<{ httpStatus: number }> {
  const timeoutMs = options.timeoutMs ?? NOTIFY_TIMEOUT_MS;
  const body = notificationBody(hook, event);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'docsync',
    'x-docsync-event': event.kind,
    'x-docsync-delivery': options.delivery,
    ...(hook.secret === undefined ? {} : { [SIGNATURE_HEADER]: signNotification(hook.secret, body) }),
  };
  const deadline = AbortSignal.timeout(timeoutMs);
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(hook.url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.any([options.signal, deadline]),
    });
  } catch (error) {
    if (options.signal.aborted) throw error;
    const reason = deadline.aborted
      ? `no answer within ${timeoutMs} ms`
      : ((error as NodeJS.ErrnoException).code ?? 'connection failed');
    // The cause may quote the URL, and with it a webhook's secret path: it stays out.
    throw new NotifyError(
      'NOTIFY_UNREACHABLE',
      `${hookLabel(hook)}: ${event.kind} not delivered (${reason})`,
    );
  }
  response.body.on('error', () => {});
  await readCappedBody(response.body, MAX_ANSWER_BYTES).catch(() => undefined);
  const httpStatus = response.statusCode;
  if (httpStatus >= 200 && httpStatus < 300) return { httpStatus };
  const passing = httpStatus >= 500 || httpStatus === 429 || httpStatus === 408;
  throw new NotifyError(
    passing ? 'NOTIFY_UNREACHABLE' : 'NOTIFY_REFUSED',
    `${hookLabel(hook)}: ${event.kind} refused with ${httpStatus}${passing ? '' : ' (check notify[].url, and the secret if the receiver checks signatures)'}`,
    { httpStatus },
  );
}
