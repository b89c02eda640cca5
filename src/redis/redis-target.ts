// Where docsync's Redis is, as the configuration says: one server (redis.url), a Cluster
// (redis.cluster.nodes) or a primary found through Sentinel (redis.sentinel), with the PEM files of
// redis.tls read once at start. No Redis configured: the caller runs or finds the embedded one.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Config } from '../config/config-schema.js';
import { EnvironmentError } from '../errors/environment-error.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';

/** The contents of the PEM files a TLS connection trusts (ca) and shows (cert, key). */
export interface RedisTls {
  ca?: string;
  cert?: string;
  key?: string;
}

export interface RedisSentinelTarget {
  /** `host:port` or `redis[s]://[user:password@]host:port`. */
  sentinels: readonly string[];
  name: string;
  username?: string;
  password?: string;
}

export type RedisTarget =
  | { url: string; tls?: RedisTls }
  | { clusterNodes: readonly string[]; tls?: RedisTls }
  | { sentinel: RedisSentinelTarget; tls?: RedisTls };

export type RedisMode = 'standalone' | 'cluster' | 'sentinel';

const TLS_FILES = ['ca', 'cert', 'key'] as const;

/**
 * The configured target, or undefined when none is configured. Relative paths in redis.tls are
 * read from `cwd`; a file that cannot be read stops the start with REDIS_TLS_FILE_UNREADABLE.
 */
export async function readRedisTarget(redis: Config['redis'], cwd: string): Promise<RedisTarget | undefined> {
  const tls = redis.tls === undefined ? {} : { tls: await readTlsFiles(redis.tls, cwd) };
  if (redis.url !== undefined) return { url: redis.url, ...tls };
  if (redis.cluster !== undefined) return { clusterNodes: redis.cluster.nodes, ...tls };
  if (redis.sentinel !== undefined) {
    const { sentinels, name, username, password } = redis.sentinel;
    return {
      sentinel: {
        sentinels,
        name,
        ...(username === undefined ? {} : { username }),
        ...(password === undefined ? {} : { password }),
      },
      ...tls,
    };
  }
  return undefined;
}

async function readTlsFiles(files: NonNullable<Config['redis']['tls']>, cwd: string): Promise<RedisTls> {
  const read: RedisTls = {};
  for (const name of TLS_FILES) {
    const path = files[name];
    if (path === undefined) continue;
    try {
      read[name] = await readFile(resolve(cwd, path), 'utf8');
    } catch (error) {
      throw new EnvironmentError(
        'REDIS_TLS_FILE_UNREADABLE',
        `redis.tls.${name}: cannot read ${resolve(cwd, path)} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}): give the path of a PEM file docsync can read`,
        { cause: error },
      );
    }
  }
  return read;
}

export function redisMode(target: RedisTarget): RedisMode {
  if ('clusterNodes' in target) return 'cluster';
  if ('sentinel' in target) return 'sentinel';
  return 'standalone';
}

/** The address with any password hidden, for logs and errors. */
export function describeRedisTarget(target: RedisTarget): string {
  if ('url' in target) return redactUrlCredentials(target.url);
  if ('clusterNodes' in target) return `cluster ${target.clusterNodes.map(redactUrlCredentials).join(',')}`;
  return `sentinel ${target.sentinel.name} via ${target.sentinel.sentinels.map(redactUrlCredentials).join(',')}`;
}
