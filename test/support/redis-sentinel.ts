// A local Redis with high availability: a primary, one replica and one sentinel or more watching
// them, each with a quorum of one. One sentinel alone may fail over when asked to (SENTINEL
// FAILOVER); a failover of its own, after the primary died, also needs the votes of a majority of
// the sentinels, so killPrimary is for a set of one. Stopped after the test or file.
import { Redis } from 'ioredis';
import { closeAfter } from './close-after.js';
import { type RedisProcess, startRedisProcess } from './redis-process.js';
import { waitFor } from './wait-for.js';

export interface RedisSentinelSet {
  /** The name the sentinel monitors the primary under. */
  name: string;
  /** `127.0.0.1:<port>` of the first sentinel, for redis.sentinel.sentinels. */
  sentinel: string;
  /** `127.0.0.1:<port>` of every sentinel, in order. */
  sentinels: readonly string[];
  /** The sentinels' processes, in order. */
  sentinelServers: readonly RedisProcess[];
  servers: readonly [RedisProcess, RedisProcess];
  /** The port of the server the last sentinel names as primary now. */
  primaryPort(): Promise<number>;
  /** Asks the last sentinel to fail over; resolves with the port of the new primary once it takes writes. */
  failover(): Promise<number>;
  /** Kills the primary (SIGKILL); resolves with the port of the replica once the sentinel promoted it. */
  killPrimary(): Promise<number>;
}

export async function startRedisSentinelSet(
  options: { name?: string; sentinelCount?: number } = {},
): Promise<RedisSentinelSet> {
  const name = options.name ?? 'docsync-primary';
  // No 5 s wait before a full sync (the default for diskless syncs): replicas sync at once.
  const sync = ['--repl-diskless-sync-delay', '0'];
  const primary = await startRedisProcess({ label: 'primary', args: sync });
  const replica = await startRedisProcess({
    label: 'replica',
    args: [...sync, '--replicaof', '127.0.0.1', String(primary.port)],
  });
  await waitFor(async () => (await role(replica.port)) === 'connected', 'the replica to sync');
  const sentinelServers: RedisProcess[] = [];
  for (let index = 0; index < (options.sentinelCount ?? 1); index += 1) {
    sentinelServers.push(
      await startRedisProcess({
        label: `sentinel-${index}`,
        args: ['--sentinel'],
        config: [
          `sentinel monitor ${name} 127.0.0.1 ${primary.port} 1`,
          `sentinel down-after-milliseconds ${name} 1000`,
          `sentinel failover-timeout ${name} 5000`,
          '',
        ].join('\n'),
      }),
    );
  }
  // The set's own questions go to the last sentinel, so that a test may pause the others.
  const asked = sentinelServers[sentinelServers.length - 1] as RedisProcess;
  const sentinel = new Redis({ port: asked.port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
  const closeSentinelClient = () => sentinel.quit().catch(() => sentinel.disconnect());
  closeAfter(closeSentinelClient);
  const primaryPort = async () => {
    const [, port] = (await sentinel.call('SENTINEL', 'get-master-addr-by-name', name)) as [string, string];
    return Number(port);
  };
  // A failover needs a replica the sentinel knows of (it learns them from the primary's INFO) and
  // has itself heard from, with its link to the primary up; until then it answers NOGOODSLAVE.
  await waitFor(async () => {
    const replicas = (await sentinel.call('SENTINEL', 'replicas', name)) as string[][];
    return replicas.some((fields) => {
      const field = (key: string) => fields[fields.indexOf(key) + 1];
      return field('flags') === 'slave' && field('master-link-status') === 'ok';
    });
  }, 'the sentinel to know the replica');
  const promoted = async (before: number) => {
    const after = await waitFor(async () => {
      const now = await primaryPort();
      return now !== before ? now : undefined;
    }, 'the sentinel to name a new primary');
    await waitFor(async () => (await role(after)) === 'master', 'the new primary to take writes');
    return after;
  };
  return {
    name,
    sentinel: `127.0.0.1:${sentinelServers[0]?.port}`,
    sentinels: sentinelServers.map((server) => `127.0.0.1:${server.port}`),
    sentinelServers,
    servers: [primary, replica],
    primaryPort,
    async failover() {
      const before = await primaryPort();
      await sentinel.call('SENTINEL', 'FAILOVER', name);
      return promoted(before);
    },
    async killPrimary() {
      if (sentinelServers.length > 1) throw new Error('killPrimary needs a set of one sentinel (see above)');
      const before = await primaryPort();
      await [primary, replica].find((server) => server.port === before)?.kill();
      return promoted(before);
    },
  };
}

/** `master` for a primary; for a replica, whether its link to the primary is up. */
async function role(port: number): Promise<string> {
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    const info = await client.info('replication');
    if (/role:master/.test(info)) return 'master';
    return /master_link_status:up/.test(info) ? 'connected' : 'syncing';
  } finally {
    client.disconnect();
  }
}
