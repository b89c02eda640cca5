// A mapping's last failure, as /status shows it: its code and a message with any credentials of a
// URL removed (git errors can quote the remote).
import { DocsyncError } from '../errors/docsync-error.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import type { MappingStateStore } from './mapping-state.js';

export async function recordFailure(
  store: MappingStateStore,
  mapping: string,
  error: unknown,
  now: () => Date,
): Promise<void> {
  await store.update(mapping, {
    lastError: {
      at: now().toISOString(),
      code: error instanceof DocsyncError ? error.code : 'FAILED',
      message: redactUrlCredentials(error instanceof Error ? error.message : String(error)),
    },
  });
}
