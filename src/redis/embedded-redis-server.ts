// When no Redis is configured, docsync runs its own `redis-server` from PATH on a free loopback
// port, with append-only persistence in the data folder, and stops it on exit. A watchdog
// (redis-watchdog.ts) stops it when docsync is killed without running its shutdown. A lock file in
// that folder keeps two docsync processes from sharing one set of files, and lets a later start stop
// a server left behind all the same.
import { type ChildProcess, spawn } from 'node:child_process';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { EnvironmentError } from '../errors/environment-error.js';
import type { Logger } from '../log/create-logger.js';
import { findFreePort } from '../net/find-free-port.js';
import { type RedisWatchdog, startRedisWatchdog } from './redis-watchdog.js';

export interface EmbeddedRedisOptions {
  /** Folder for the append-only files and the lock file; created when missing. */
  dir: string;
  log: Logger;
  binary?: string;
  startTimeoutMs?: number;
  /** Start with no data: the files of an earlier run are deleted (under the lock) first. */
  fresh?: boolean;
  /**
   * Called as soon as a redis-server process is spawned, while it loads: what is done meanwhile
   * overlaps its start. Called again if a taken port makes it spawn another.
   */
  onSpawned?: () => void;
  /** Called when the server exits without stop() having been called. */
  onUnexpectedExit?: (exit: { code: number | null; signal: NodeJS.Signals | null }) => void;
}

export interface EmbeddedRedis {
  url: string;
  port: number;
  pid: number;
  /** The pid of the watchdog that stops the server if docsync is killed (undefined when it is not running). */
  readonly watchdogPid: number | undefined;
  stop(): Promise<void>;
}

interface LockFile {
  pid: number;
  redisPid?: number;
  port?: number;
}

const LOCK_FILE = 'docsync.lock';
/** Lock files this process holds: a recorded pid equal to ours is only ours if it is listed here
 * (a container restarted as pid 1 finds its previous life's lock with the same pid). */
const heldHere = new Set<string>();
const PORT_ATTEMPTS = 3;
const STOP_TIMEOUT_MS = 10_000;
/** Between two asks whether the server answers yet: it is usually up within tens of milliseconds. */
const READY_POLL_MS = 10;

export const REDIS_MISSING_HINT =
  'redis-server was not found on PATH: install it (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis) or set REDIS_URL (redis.url) to a Redis 6.2+ you run';

export async function startEmbeddedRedis(options: EmbeddedRedisOptions): Promise<EmbeddedRedis> {
  const dir = resolve(options.dir);
  await mkdir(dir, { recursive: true });
  const lockPath = join(dir, LOCK_FILE);
  await acquireLock(lockPath, options.log);
  try {
    if (options.fresh === true) {
      // Redis 7 keeps its append-only files in a folder; older ones, and snapshots, beside it.
      for (const name of ['appendonlydir', 'appendonly.aof', 'dump.rdb'])
        await rm(join(dir, name), { recursive: true, force: true });
    }
    for (let attempt = 1; ; attempt += 1) {
      const port = await findFreePort();
      try {
        const { child, watchdog } = await spawnServer(
          options.binary ?? 'redis-server',
          dir,
          port,
          options.startTimeoutMs ?? 10_000,
          options.log,
          options.onSpawned,
        );
        await writeLock(lockPath, { pid: process.pid, redisPid: child.pid, port });
        options.log.info({ port, dir, redisPid: child.pid }, 'embedded redis-server started');
        return embedded(child, watchdog, port, lockPath, options);
      } catch (error) {
        // Another program can take the free port between our check and redis-server's bind.
        if (!(error instanceof PortTakenError) || attempt >= PORT_ATTEMPTS) throw error;
      }
    }
  } catch (error) {
    heldHere.delete(lockPath);
    await rm(lockPath, { force: true });
    throw error;
  }
}

class PortTakenError extends Error {}

interface SpawnedServer {
  child: ChildProcess & { pid: number };
  watchdog: RedisWatchdog;
}

function spawnServer(
  binary: string,
  dir: string,
  port: number,
  timeoutMs: number,
  log: Logger,
  onSpawned: (() => void) | undefined,
): Promise<SpawnedServer> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--protected-mode',
    'yes',
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
    '--daemonize',
    'no',
    '--loglevel',
    'warning',
    '--logfile',
    '',
  ];
  return new Promise((resolvePromise, reject) => {
    // Its own process group: a terminal's Ctrl-C goes to docsync's group, and docsync must be able
    // to let running jobs finish against its Redis before stopping it.
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    // Told first, so that what it starts (reading files) runs while the watchdog is spawned too.
    if (child.pid !== undefined) onSpawned?.();
    // Watched from the start: a docsync killed while the server loads its files leaves nothing either.
    const watchdog = child.pid === undefined ? undefined : startRedisWatchdog({ redisPid: child.pid, log });
    const output: string[] = [];
    const remember = (chunk: Buffer) => {
      output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      output.splice(0, Math.max(0, output.length - 20));
    };
    child.stdout.on('data', remember);
    child.stderr.on('data', remember);
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      child.kill('SIGKILL');
      void watchdog?.release();
      reject(error);
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      fail(
        error.code === 'ENOENT'
          ? new EnvironmentError('REDIS_SERVER_MISSING', REDIS_MISSING_HINT, { cause: error })
          : new EnvironmentError(
              'REDIS_SERVER_FAILED',
              `redis-server could not be started: ${error.message}`,
              { cause: error },
            ),
      );
    });
    child.once('exit', (code, signal) => {
      const said = output.join(' | ');
      if (/address already in use/i.test(said)) fail(new PortTakenError(said));
      else
        fail(
          new EnvironmentError(
            'REDIS_SERVER_FAILED',
            `redis-server exited (${signal ?? code}) before it was ready: ${said || 'no output'}`,
          ),
        );
    });
    waitForServer(port, child, timeoutMs, () => settled).then(
      (ready) => {
        if (settled) return;
        if (!ready) {
          fail(
            new EnvironmentError(
              'REDIS_SERVER_FAILED',
              `redis-server did not answer on port ${port} within ${timeoutMs} ms`,
            ),
          );
          return;
        }
        settled = true;
        // A server that is ready has a pid, so it has a watchdog.
        resolvePromise({
          child: child as ChildProcess & { pid: number },
          watchdog: watchdog as RedisWatchdog,
        });
      },
      (error: unknown) => fail(error as Error),
    );
  });
}

/** Waits until our child answers on the port: a server that took the port meanwhile is not ours. */
async function waitForServer(
  port: number,
  child: ChildProcess,
  timeoutMs: number,
  abandoned: () => boolean,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !abandoned()) {
    const info = await command(port, 'INFO server');
    const pid = /(?:^|\n)process_id:(\d+)/.exec(info ?? '')?.[1];
    if (pid !== undefined) {
      if (Number(pid) === child.pid) return true;
      throw new PortTakenError(`another redis-server (pid ${pid}) answers on port ${port}`);
    }
    await sleep(READY_POLL_MS);
  }
  return false;
}

/** Sends one inline command and reads one reply: enough to ask a server who it is. */
function command(port: number, text: string): Promise<string | undefined> {
  return new Promise((resolvePromise) => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    const done = (value: string | undefined) => {
      socket.destroy();
      resolvePromise(value);
    };
    socket.setTimeout(500, () => done(undefined));
    socket.once('error', () => done(undefined));
    socket.once('connect', () => socket.write(`${text}\r\n`));
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      const bulk = /^\$(\d+)\r\n/.exec(answer);
      if (answer.startsWith('-')) done(undefined);
      else if (bulk?.[1] !== undefined && Buffer.byteLength(answer) >= bulk[0].length + Number(bulk[1]))
        done(answer);
    });
  });
}

function embedded(
  child: ChildProcess & { pid: number },
  watchdog: RedisWatchdog,
  port: number,
  lockPath: string,
  options: EmbeddedRedisOptions,
): EmbeddedRedis {
  const { log } = options;
  let stopping: Promise<void> | undefined;
  let exited = false;
  child.once('exit', (code, signal) => {
    exited = true;
    // Its pid may be reused from now on: the watchdog must never signal it.
    void watchdog.release();
    if (stopping !== undefined) return;
    log.fatal({ redisPid: child.pid, code, signal }, 'embedded redis-server exited unexpectedly');
    options.onUnexpectedExit?.({ code, signal });
  });
  // If docsync dies without its shutdown, do not leave the server behind.
  const onExit = () => {
    if (!exited) child.kill('SIGTERM');
  };
  process.once('exit', onExit);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    get watchdogPid() {
      return watchdog.pid;
    },
    stop() {
      stopping ??= (async () => {
        process.removeListener('exit', onExit);
        if (!exited) {
          const gone = new Promise<void>((resolvePromise) => child.once('exit', () => resolvePromise()));
          // SIGTERM makes redis-server flush the append-only file and exit cleanly.
          child.kill('SIGTERM');
          const stopped = await Promise.race([
            gone.then(() => true),
            sleep(STOP_TIMEOUT_MS, false, { ref: false }),
          ]);
          if (!stopped) {
            log.warn({ redisPid: child.pid }, 'embedded redis-server did not stop in time, killing it');
            child.kill('SIGKILL');
            await gone;
          }
        }
        await watchdog.release();
        await rm(lockPath, { force: true });
        heldHere.delete(lockPath);
        log.info({ port }, 'embedded redis-server stopped');
      })();
      return stopping;
    },
  };
}

async function acquireLock(lockPath: string, log: Logger): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    // Written whole before it appears: a reader never sees a half-written lock file.
    const temp = `${lockPath}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify({ pid: process.pid } satisfies LockFile));
    try {
      await link(temp, lockPath);
      heldHere.add(lockPath);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await rm(temp, { force: true });
    }
    const held = await readLock(lockPath);
    const ours = held?.pid === process.pid;
    if (held !== undefined && (ours ? heldHere.has(lockPath) : isAlive(held.pid))) {
      throw new EnvironmentError(
        'DATA_DIR_BUSY',
        `another docsync (pid ${held.pid}) runs the embedded Redis in ${lockPath.slice(0, -LOCK_FILE.length - 1)}: stop it, use another dataDir, or set REDIS_URL to share one Redis`,
      );
    }
    if (held?.redisPid !== undefined && isAlive(held.redisPid)) {
      log.warn(
        { redisPid: held.redisPid },
        'stopping a redis-server left behind by a docsync that did not shut down',
      );
      await stopOrphan(held.redisPid);
    }
    await rm(lockPath, { force: true });
  }
  throw new EnvironmentError('DATA_DIR_BUSY', `could not take the lock ${lockPath}`);
}

async function writeLock(lockPath: string, lock: LockFile): Promise<void> {
  const temp = `${lockPath}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(lock));
  await rename(temp, lockPath);
}

async function readLock(lockPath: string): Promise<LockFile | undefined> {
  try {
    const parsed = JSON.parse(await readFile(lockPath, 'utf8')) as Partial<LockFile>;
    return typeof parsed.pid === 'number' ? (parsed as LockFile) : undefined;
  } catch {
    return undefined;
  }
}

async function stopOrphan(pid: number): Promise<void> {
  if (!(await isRedisServer(pid))) return;
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < STOP_TIMEOUT_MS && isAlive(pid); waited += 100) await sleep(100);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
}

/** Where /proc exists, make sure a recorded pid was not reused by some other program. */
async function isRedisServer(pid: number): Promise<boolean> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('redis-server');
  } catch {
    return process.platform !== 'linux';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The address of the embedded Redis a running docsync keeps in `dir`, for commands such as `resume`. */
export async function runningEmbeddedRedis(dir: string): Promise<string | undefined> {
  const lock = await readLock(join(resolve(dir), LOCK_FILE));
  if (lock?.port === undefined || lock.redisPid === undefined || !isAlive(lock.redisPid)) return undefined;
  return `redis://127.0.0.1:${lock.port}`;
}
