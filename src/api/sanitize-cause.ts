// A low-level error (undici, node:net) reduced to what is safe to keep as an ApiError's `cause`.
import { redactSecrets } from './redact-secrets.js';

/**
 * A copy keeping only the name, code and message, with the secrets removed, so that nothing the
 * socket layer attached (request options, headers, sockets) can travel on. Nested causes are copied
 * the same way, three levels deep.
 */
export function sanitizeCause(error: unknown, secrets: readonly string[], depth = 0): Error | undefined {
  if (error === undefined || error === null) return undefined;
  if (!(error instanceof Error)) return new Error(redactSecrets(String(error), secrets));
  const copy = new Error(redactSecrets(error.message, secrets));
  copy.name = error.name;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code });
  copy.stack = `${copy.name}: ${copy.message}`;
  if (depth < 3 && error.cause !== undefined) {
    const cause = sanitizeCause(error.cause, secrets, depth + 1);
    if (cause !== undefined) Object.defineProperty(copy, 'cause', { value: cause, enumerable: false });
  }
  return copy;
}
