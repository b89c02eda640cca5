// One redis-server (or sentinel) the test starts itself on a free loopback port, in its own temp
// folder, stopped after the test or file: for the tests of Cluster, Sentinel and TLS, which need
// servers set up otherwise than the run's shared private Redis.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { closeAfter } from './close-after.js';
import { freePort } from './free-port.js';
import { tempDir } from './test-context.js';

export interface RedisProcess {
  port: number;
  dir: string;
  /** Stops it (SIGTERM, then SIGKILL after 5 s); safe to call more than once. */
  stop(): Promise<void>;
  /** Kills it at once, as a crash would. */
  kill(): Promise<void>;
  /** Freezes it (SIGSTOP), as a paused machine would: connections open, nothing answered. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT). */
  resume(): void;
}

const READY = /Ready to accept connections|Sentinel ID is/;
const START_TIMEOUT_MS = 10_000;

/**
 * Starts `redis-server` with `args` after the defaults (loopback, no persistence, no daemon), on
 * `port` or a free one. `portFlag` names the listening port (`--tls-port` for TLS only, with
 * `--port 0` in args); `config` is written to a file given first, as a sentinel needs.
 */
export async function startRedisProcess(
  options: {
    args?: readonly string[];
    port?: number;
    portFlag?: string;
    config?: string;
    label?: string;
  } = {},
): Promise<RedisProcess> {
  const dir = await tempDir(`redis-${options.label ?? 'server'}`);
  const port = options.port ?? (await freePort());
  const configFile = join(dir, 'redis.conf');
  await writeFile(configFile, options.config ?? '');
  const args = [
    configFile,
    options.portFlag ?? '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'no',
    '--daemonize',
    'no',
    '--logfile',
    '',
    ...(options.args ?? []),
  ];
  const child = spawn('redis-server', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit').catch(() => undefined);
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`redis-server ${args.join(' ')} not ready in ${START_TIMEOUT_MS} ms:\n${output}`)),
      START_TIMEOUT_MS,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (READY.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server ${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
  let stopping: Promise<void> | undefined;
  const end = (signal: NodeJS.Signals) => {
    // A paused server would not act on SIGTERM until it is let go on.
    child.kill('SIGCONT');
    stopping ??= stopChild(child, exited, signal);
    return stopping;
  };
  const server: RedisProcess = {
    port,
    dir,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
  };
  closeAfter(() => server.stop());
  try {
    await ready;
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

async function stopChild(
  child: ChildProcess,
  exited: Promise<unknown>,
  signal: NodeJS.Signals,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
