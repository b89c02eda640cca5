// What ioredis is given for each kind of target, as data: the address parts, credentials and TLS
// options, beside the role's options (src/redis/redis-connections.ts). Pure, so that each mode's
// options are tested without a server.
import type { ClusterNode, ClusterOptions, RedisOptions, SentinelAddress } from 'ioredis';
import { CoalescingStandaloneConnector } from './coalescing-standalone-connector.js';
import { FailoverSafeSentinelConnector } from './failover-safe-sentinel-connector.js';
import type { RedisSentinelTarget, RedisTarget, RedisTls } from './redis-target.js';

export type RedisClientPlan =
  | { kind: 'standalone'; url: string; options: RedisOptions }
  | { kind: 'cluster'; nodes: ClusterNode[]; options: ClusterOptions }
  | { kind: 'sentinel'; options: RedisOptions };

/** A primary demoted to a replica answers writes with READONLY until the client finds the new one. */
const READONLY = /^READONLY\b/;

/**
 * How long a sentinel may take to answer: one that hangs (a paused machine) must not hold a
 * reconnect forever while another sentinel could answer.
 */
export const SENTINEL_COMMAND_TIMEOUT_MS = 5000;

export function redisClientPlan(target: RedisTarget, options: RedisOptions): RedisClientPlan {
  const tls = target.tls === undefined ? {} : { tls: tlsOptions(target.tls) };
  // Its sockets coalesce a tick's writes and keep an error listener (prepare-redis-socket.ts), as
  // the Cluster's and the Sentinel connector's do.
  const Connector = CoalescingStandaloneConnector;
  if ('url' in target)
    return { kind: 'standalone', url: target.url, options: { ...options, ...tls, Connector } };
  if ('clusterNodes' in target) {
    const first = target.clusterNodes[0];
    const secure = first?.startsWith('rediss://') === true;
    return {
      kind: 'cluster',
      nodes: target.clusterNodes.map((url) => addressOf(url, 6379)),
      options: {
        // Each node's client, and each slot refresh's, is made with these: the connector's too.
        redisOptions: {
          ...options,
          Connector,
          ...(first === undefined ? {} : credentialsOf(first)),
          ...(secure ? { tls: tlsOptions(target.tls ?? {}) } : {}),
        },
        ...pick(options, ['maxRetriesPerRequest', 'enableOfflineQueue']),
      },
    };
  }
  return { kind: 'sentinel', options: { ...options, ...sentinelOptions(target.sentinel, target.tls) } };
}

function sentinelOptions(sentinel: RedisSentinelTarget, tls: RedisTls | undefined): RedisOptions {
  const urls = sentinel.sentinels.filter((address) => address.includes('://'));
  const secure = urls.some((url) => url.startsWith('rediss://'));
  const withCredentials = urls.map(credentialsOf).find((found) => found.password !== undefined);
  const tlsConnection = tlsOptions(tls ?? {});
  return {
    sentinels: sentinel.sentinels.map((address): Partial<SentinelAddress> => addressOf(address, 26379)),
    name: sentinel.name,
    role: 'master',
    ...(sentinel.username === undefined ? {} : { username: sentinel.username }),
    ...(sentinel.password === undefined ? {} : { password: sentinel.password }),
    ...(withCredentials?.username === undefined ? {} : { sentinelUsername: withCredentials.username }),
    ...(withCredentials?.password === undefined ? {} : { sentinelPassword: withCredentials.password }),
    // TLS is on for the sentinels and the data nodes alike, as their addresses say (rediss://).
    ...(secure ? { sentinelTLS: tlsConnection, tls: tlsConnection, enableTLSForSentinelMode: true } : {}),
    // Learn of a failover from the sentinels at once rather than from the next failed command,
    // through a connector that drops a connection's detector with the connection (see there).
    failoverDetector: true,
    Connector: FailoverSafeSentinelConnector,
    sentinelCommandTimeout: SENTINEL_COMMAND_TIMEOUT_MS,
    // 2: reconnect (asking the sentinels for the primary again) and resend the command.
    reconnectOnError: (error) => (READONLY.test(error.message) ? 2 : false),
  };
}

function tlsOptions(tls: RedisTls): NonNullable<RedisOptions['tls']> {
  return {
    ...(tls.ca === undefined ? {} : { ca: tls.ca }),
    ...(tls.cert === undefined ? {} : { cert: tls.cert }),
    ...(tls.key === undefined ? {} : { key: tls.key }),
  };
}

/** `host:port` or a redis[s]:// URL, as host and port. */
function addressOf(address: string, defaultPort: number): { host: string; port: number } {
  if (!address.includes('://')) {
    const colon = address.lastIndexOf(':');
    return { host: address.slice(0, colon), port: Number(address.slice(colon + 1)) };
  }
  const parsed = new URL(address);
  // An IPv6 host comes back in brackets, which a socket does not take.
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(parsed.port || defaultPort) };
}

function credentialsOf(url: string): { username?: string; password?: string } {
  const parsed = new URL(url);
  return {
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
  };
}

function pick<T extends object, K extends keyof T>(object: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.filter((key) => key in object).map((key) => [key, object[key]])) as Pick<
    T,
    K
  >;
}
