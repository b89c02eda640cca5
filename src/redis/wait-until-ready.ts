// At start, docsync waits a bounded time for Redis before it relies on it, and says where it looked.
import { EnvironmentError } from '../errors/environment-error.js';
import type { RedisClient } from './redis-connections.js';

export async function waitUntilReady(
  client: RedisClient,
  description: string,
  timeoutMs: number,
): Promise<void> {
  if (client.status === 'ready') return;
  let timer: NodeJS.Timeout | undefined;
  let onReady: (() => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      onReady = resolve;
      client.once('ready', onReady);
      timer = setTimeout(
        () =>
          reject(
            new EnvironmentError(
              'REDIS_UNREACHABLE',
              `Redis at ${description} did not answer within ${timeoutMs} ms: check redis.url (REDIS_URL) and that Redis runs`,
            ),
          ),
        timeoutMs,
      );
    });
  } finally {
    clearTimeout(timer);
    if (onReady) client.removeListener('ready', onReady);
  }
}
