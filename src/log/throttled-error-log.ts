// EventEmitters of Redis clients, queues and workers repeat the same error on every reconnect
// attempt: one line per distinct message per window keeps the log readable during an outage.
import type { Logger } from './create-logger.js';

export const ERROR_LOG_WINDOW_MS = 30_000;

export function throttledErrorLog(
  log: Logger,
  message: string,
  level: 'warn' | 'error' = 'warn',
  windowMs = ERROR_LOG_WINDOW_MS,
) {
  const lastLogged = new Map<string, number>();
  return (error: Error): void => {
    const now = Date.now();
    if ((lastLogged.get(error.message) ?? Number.NEGATIVE_INFINITY) + windowMs > now) return;
    lastLogged.set(error.message, now);
    log[level]({ err: error }, message);
  };
}
