// At start, docsync waits a bounded time for Redis before it relies on it, and says where it looked.
import { Cluster } from 'ioredis';
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
              `Redis at ${description} did not answer within ${timeoutMs} ms: check ${settingOf(client)} and that Redis runs`,
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

/** The setting that says where this client looks for Redis. */
function settingOf(client: RedisClient): string {
  if (client instanceof Cluster) return 'redis.cluster.nodes';
  if ((client.options.sentinels?.length ?? 0) > 0)
    return `redis.sentinel (the sentinels, and the name ${client.options.name})`;
  return 'redis.url (REDIS_URL)';
}
