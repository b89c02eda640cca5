// A private redis-server for a benchmark: a free loopback port, append-only files in a folder of
// its own (so its jobs survive a kill, as a production Redis keeps them), and the means to kill it
// with SIGKILL and start it again on the same port with the same files.
import { type ChildProcess, spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { findFreePort } from '../src/net/find-free-port.js';

export interface BenchRedis {
  url: string;
  port: number;
  /** SIGKILL, as a crash of the machine's Redis would end it; resolves once it has exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port and folder; resolves when it answers PING. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 15_000;

export async function startBenchRedis(dir: string): Promise<BenchRedis> {
  const port = await findFreePort();
  const url = `redis://127.0.0.1:${port}`;
  let child = await spawnServer(dir, port, url);
  const exited = (process: ChildProcess) =>
    process.exitCode !== null || process.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => process.once('exit', () => resolve()));
  return {
    url,
    port,
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async restart() {
      child = await spawnServer(dir, port, url);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/** A bench Redis on loopback: append-only every second, no snapshots, never evicting a job. */
export function benchRedisArgs(dir: string, port: number): string[] {
  return [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--appendfsync',
    'everysec',
    '--save',
    '',
    '--maxmemory-policy',
    'noeviction',
    '--loglevel',
    'warning',
  ];
}

async function spawnServer(dir: string, port: number, url: string): Promise<ChildProcess> {
  const child = spawn('redis-server', benchRedisArgs(dir, port), { stdio: 'ignore' });
  const failed = new Promise<never>((_, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      reject(new Error(`bench: redis-server exited (${signal ?? code}) before it was ready`)),
    );
  });
  const ready = (async () => {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      const client = new Redis(url, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      client.on('error', () => {});
      const answer = await client
        .connect()
        .then(() => client.ping())
        .catch(() => undefined);
      client.disconnect();
      if (answer === 'PONG') return child;
      if (Date.now() > deadline) throw new Error(`bench: redis-server did not answer on port ${port}`);
      await sleep(20);
    }
  })();
  const started = await Promise.race([ready, failed]);
  // Once ready, a later exit is the benchmark's own kill, not a failed start.
  failed.catch(() => {});
  return started;
}
