// What docsync asks of a Redis before it relies on it: 6.2 or newer (BullMQ's scripts need it) and
// a `maxmemory-policy` of `noeviction` (any other policy lets Redis drop queued jobs under memory
// pressure: a warning, since a managed Redis may not let the operator change it).
import { Cluster } from 'ioredis';
import { EnvironmentError } from '../errors/environment-error.js';
import type { Logger } from '../log/create-logger.js';
import type { RedisClient } from './redis-connections.js';

export const MIN_REDIS_VERSION = [6, 2, 0] as const;

export interface RedisServerFacts {
  version: string;
  maxmemoryPolicy: string | undefined;
}

/** Reads the facts of every node that holds data (each master, for a cluster) and judges them. */
export async function checkRedisServer(client: RedisClient, log: Logger): Promise<RedisServerFacts[]> {
  const nodes = client instanceof Cluster ? client.nodes('master') : [client];
  const facts = await Promise.all(nodes.map(readFacts));
  for (const fact of facts) {
    if (!isAtLeast(fact.version, MIN_REDIS_VERSION)) {
      throw new EnvironmentError(
        'REDIS_TOO_OLD',
        `Redis ${fact.version} is too old: docsync needs Redis ${MIN_REDIS_VERSION.join('.')} or newer`,
      );
    }
    if (fact.maxmemoryPolicy !== undefined && fact.maxmemoryPolicy !== 'noeviction') {
      log.warn(
        { maxmemoryPolicy: fact.maxmemoryPolicy, expected: 'noeviction' },
        'redis maxmemory-policy can evict queued jobs: set it to noeviction',
      );
    }
  }
  return facts;
}

async function readFacts(node: { info(section: string): Promise<string> }): Promise<RedisServerFacts> {
  const server = parseInfo(await node.info('server'));
  const memory = parseInfo(await node.info('memory'));
  return { version: server.get('redis_version') ?? '0.0.0', maxmemoryPolicy: memory.get('maxmemory_policy') };
}

export function parseInfo(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return fields;
}

export function isAtLeast(version: string, minimum: readonly number[]): boolean {
  const parts = version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < minimum.length; i += 1) {
    const have = parts[i] ?? 0;
    const need = minimum[i] ?? 0;
    if (have !== need) return have > need;
  }
  return true;
}
