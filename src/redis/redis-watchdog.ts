// Stops the embedded redis-server when docsync dies without running its shutdown (kill -9, the OOM
// killer): a tiny `sh` reads a pipe whose only writer is docsync. The kernel closes that pipe when
// docsync ends, however it ends; the shell then sends the server SIGTERM, and SIGKILL after a grace
// period. docsync's own shutdown stops the server itself, then releases the watchdog.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../log/create-logger.js';

/** The watchdog's name in `ps` (the shell's `$0`). */
export const WATCHDOG_NAME = 'docsync-redis-watchdog';
export const WATCHDOG_GRACE_MS = 4000;
const RELEASE_LINE = 'release';
const RELEASE_TIMEOUT_MS = 2000;
/** A watchdog killed on its own is replaced, but one that keeps dying is not restarted forever. */
const MAX_RESTARTS = 5;

// $1: the pid to stop, $2: the grace period in tenths of a second. `read` returns non-zero at end of
// input, which is docsync closing the pipe or dying. `sleep 0.1` is not POSIX but works with GNU,
// BusyBox and BSD; elsewhere whole seconds are counted.
const SCRIPT = `while read -r line; do
  if [ "$line" = ${RELEASE_LINE} ]; then exit 0; fi
done
kill -TERM "$1" 2>/dev/null || exit 0
waited=0
while kill -0 "$1" 2>/dev/null; do
  if [ "$waited" -ge "$2" ]; then kill -KILL "$1" 2>/dev/null; exit 0; fi
  if sleep 0.1 2>/dev/null; then waited=$((waited + 1)); else sleep 1; waited=$((waited + 10)); fi
done`;

export interface RedisWatchdogOptions {
  /** The redis-server to stop if docsync dies. */
  redisPid: number;
  log: Logger;
  /** How long the server gets between SIGTERM and SIGKILL. */
  graceMs?: number;
  shell?: string;
}

export interface RedisWatchdog {
  /** The running watchdog's pid: undefined once released, or when none could be started. */
  readonly pid: number | undefined;
  /** Stands the watchdog down without touching the server, and waits until it has exited. */
  release(): Promise<void>;
}

type WatchdogProcess = ChildProcessByStdio<Writable, null, null>;

export function startRedisWatchdog(options: RedisWatchdogOptions): RedisWatchdog {
  const { redisPid, log } = options;
  const graceTenths = String(Math.ceil((options.graceMs ?? WATCHDOG_GRACE_MS) / 100));
  let current: WatchdogProcess | undefined;
  let releasing: Promise<void> | undefined;
  let restarts = 0;

  const launch = () => {
    // Its own process group: a terminal's Ctrl-C, which docsync answers by draining its jobs against
    // this Redis, must not reach the watchdog either.
    const child = spawn(options.shell ?? 'sh', ['-c', SCRIPT, WATCHDOG_NAME, String(redisPid), graceTenths], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    });
    current = child;
    // A write to a watchdog that died fails with EPIPE: its exit is handled below.
    child.stdin.on('error', () => {});
    child.once('error', (error) => {
      if (current === child) current = undefined;
      log.error(
        { err: error, redisPid },
        'redis watchdog could not start: a killed docsync would leave its redis-server running',
      );
    });
    child.once('spawn', () => log.info({ watchdogPid: child.pid, redisPid }, 'redis watchdog started'));
    child.once('exit', (code, signal) => {
      if (current !== child) return;
      current = undefined;
      if (restarts >= MAX_RESTARTS) {
        log.error(
          { watchdogPid: child.pid, code, signal, redisPid },
          'redis watchdog keeps exiting, not restarting it',
        );
        return;
      }
      restarts += 1;
      log.warn(
        { watchdogPid: child.pid, code, signal, redisPid },
        'redis watchdog exited unexpectedly, starting another',
      );
      launch();
    });
    // The watchdog never keeps docsync running: only docsync's own work does.
    child.unref();
    if ('unref' in child.stdin && typeof child.stdin.unref === 'function') child.stdin.unref();
  };
  launch();

  return {
    get pid() {
      return current?.pid;
    },
    release() {
      releasing ??= (async () => {
        const child = current;
        current = undefined;
        if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        // Unreferenced while it watches; docsync's shutdown must now wait for it to go.
        child.ref();
        child.stdin.end(`${RELEASE_LINE}\n`);
        const exited = await Promise.race([
          gone.then(() => true),
          sleep(RELEASE_TIMEOUT_MS, false, { ref: false }),
        ]);
        if (!exited) {
          log.warn({ watchdogPid: child.pid }, 'redis watchdog did not stand down in time, killing it');
          child.kill('SIGKILL');
          await gone;
        }
      })();
      return releasing;
    },
  };
}
