// A local Redis Cluster of three masters (no replicas), made as an operator would: three servers with
// cluster mode on, joined by `redis-cli --cluster create`. Stopped after the test or file.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { type RedisProcess, startRedisProcess } from './redis-process.js';
import { waitFor } from './wait-for.js';

const run = promisify(execFile);

export interface RedisCluster {
  nodes: readonly RedisProcess[];
  /** One redis:// URL per master, for redis.cluster.nodes. */
  urls: readonly string[];
}

export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const nodes = await Promise.all(
    Array.from({ length: masters }, () =>
      startRedisProcess({
        label: 'cluster',
        args: [
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          '2000',
        ],
      }),
    ),
  );
  const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
  await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
  // Every node must know every slot's owner before a client may rely on any of them.
  await waitFor(async () => {
    const states = await Promise.all(nodes.map((node) => clusterState(node.port)));
    return states.every((state) => state === 'ok');
  }, 'the cluster to be ok on every node');
  return { nodes, urls: addresses.map((address) => `redis://${address}`) };
}

async function clusterState(port: number): Promise<string | undefined> {
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
  try {
    await client.connect();
    const info = await client.cluster('INFO');
    return /cluster_state:(\w+)/.exec(String(info))?.[1];
  } finally {
    client.disconnect();
  }
}
