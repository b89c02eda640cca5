// Raised into a processor's AbortSignal when docsync has to stop before the job could finish.
import { DocsyncError } from './docsync-error.js';

export class ShutdownError extends DocsyncError {
  constructor() {
    super('SHUTDOWN', 'docsync is shutting down', { retryable: true });
  }
}
