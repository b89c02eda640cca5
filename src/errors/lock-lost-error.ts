// The per-space lock could not be renewed while a job held it: another process may now run for
// that space, so the job is aborted and retried rather than allowed to race.
import { DocsyncError } from './docsync-error.js';

export class LockLostError extends DocsyncError {
  constructor(key: string, options: { cause?: unknown } = {}) {
    super('LOCK_LOST', `lost the lock ${key} while the job held it`, { ...options, retryable: true });
  }
}
