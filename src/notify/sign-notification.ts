// The signature of a notification's body, as GitHub signs its webhooks: HMAC-SHA256 of the exact
// bytes sent, hex, prefixed `sha256=`. A receiver computes the same with the shared secret and
// compares in constant time.
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-docsync-signature-256';

export function signNotification(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
