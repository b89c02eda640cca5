// The last step before a log line is written: the values of secret keys (redact-secret-keys.ts) and
// credentials in any URL of the line (in a field, the message, a child logger's bindings or an
// error's stack) are hidden, whatever put them there.
import type { DestinationStream } from 'pino';
import { redactSecretKeys } from './redact-secret-keys.js';
import { redactUrlCredentials } from './redact-url-credentials.js';

type Flushable = DestinationStream & {
  flush?: (callback?: (error?: Error | null) => void) => void;
  flushSync?: () => void;
};

/** `inner`, writing each line with its secret keys' values and URL credentials redacted; flushing is passed through. */
export function redactingDestination(inner: DestinationStream): DestinationStream {
  const target = inner as Flushable;
  const wrapper: Flushable = {
    write: (line: string) => target.write(redactUrlCredentials(redactSecretKeys(line))),
  };
  if (typeof target.flush === 'function') wrapper.flush = (callback) => target.flush?.(callback);
  if (typeof target.flushSync === 'function') wrapper.flushSync = () => target.flushSync?.();
  return wrapper;
}
