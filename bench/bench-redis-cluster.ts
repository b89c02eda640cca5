// A private Redis Cluster of three masters for a benchmark: each node with the same persistence as
// bench-redis.ts's single server (append-only, fsync every second), on free loopback ports, joined
// with `redis-cli --cluster create`.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { findFreePort } from '../src/net/find-free-port.js';
import { benchRedisArgs } from './bench-redis.js';

const run = promisify(execFile);
const READY_TIMEOUT_MS = 15_000;

export interface BenchRedisCluster {
  /** redis:// URLs of the masters, for redis.cluster.nodes. */
  urls: string[];
  stop(): Promise<void>;
}

export async function startBenchRedisCluster(dir: string, masters = 3): Promise<BenchRedisCluster> {
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
  };
  try {
    const ports: number[] = [];
    for (let n = 0; n < masters; n += 1) {
      const port = await findFreePort();
      const nodeDir = join(dir, `node-${n}`);
      await mkdir(nodeDir, { recursive: true });
      // Taken before the next free port is asked for, so two nodes never get the same one.
      children.push(spawnNode(nodeDir, port));
      await answersPing(port);
      ports.push(port);
    }
    const addresses = ports.map((port) => `127.0.0.1:${port}`);
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
    for (const port of ports) await clusterOk(port);
    return { urls: addresses.map((address) => `redis://${address}`), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function spawnNode(dir: string, port: number): ChildProcess {
  const cluster = [
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    'nodes.conf',
    '--cluster-node-timeout',
    '5000',
  ];
  return spawn('redis-server', [...benchRedisArgs(dir, port), ...cluster], { stdio: 'ignore' });
}

async function answersPing(port: number): Promise<void> {
  await poll(port, async (client) => (await client.ping()) === 'PONG', 'answer PING');
}

async function clusterOk(port: number): Promise<void> {
  await poll(port, async (client) => /cluster_state:ok/.test(String(await client.cluster('INFO'))), 'be ok');
}

async function poll(port: number, test: (client: Redis) => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const client = new Redis({
      host: '127.0.0.1',
      port,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => {});
    const passed = await client
      .connect()
      .then(() => test(client))
      .catch(() => false);
    client.disconnect();
    if (passed) return;
    if (Date.now() > deadline) throw new Error(`bench: cluster node on port ${port} did not ${what}`);
    await sleep(50);
  }
}
