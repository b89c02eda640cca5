import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/package-info.js';
import { startRedisWatchdog } from '../../../src/redis/redis-watchdog.js';
import { cliEnv, startCli } from '../../support/cli-process.js';
import { processEnded } from '../../support/process-ended.js';
import { captureLog } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const OWNER = join(PACKAGE_ROOT, 'test', 'support', 'redis-watchdog-owner.ts');

/** A stand-in for redis-server that says when SIGTERM reaches it and, if told to, ignores it. */
function startTarget(ignoreSigterm: boolean) {
  const script = `
    process.on('SIGTERM', () => {
      console.log(JSON.stringify({ msg: 'got SIGTERM' }));
      if (${ignoreSigterm === false}) process.exit(0);
    });
    console.log(JSON.stringify({ msg: 'ready' }));
    setInterval(() => {}, 60000);`;
  return startCli([], { command: [process.execPath, '-e', script], env: cliEnv() });
}

describe('the redis watchdog', () => {
  it('stops the server with SIGTERM, then SIGKILL after the grace period, once its owner is killed', async () => {
    const target = startTarget(true);
    await target.waitForLog('ready');
    const owner = startCli([], {
      command: [process.execPath, '--import', 'tsx', OWNER, String(target.child.pid), '300'],
      env: cliEnv(),
    });
    const started = await owner.waitForLog('redis watchdog started', 30_000);
    const watchdogPid = started.watchdogPid as number;
    expect(started.redisPid).toBe(target.child.pid);

    owner.child.kill('SIGKILL');
    await owner.exited;
    await target.waitForLog('got SIGTERM');
    // The target ignores SIGTERM: only the watchdog's SIGKILL can end it.
    expect(await target.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await waitFor(() => processEnded(watchdogPid), 'the watchdog to exit after its work', 5000);
  });

  it('stands down on release without touching the server, and leaves no process behind', async () => {
    const target = startTarget(false);
    await target.waitForLog('ready');
    const { log, lines } = captureLog();
    const watchdog = startRedisWatchdog({ redisPid: target.child.pid as number, log });
    const watchdogPid = watchdog.pid as number;
    expect(
      await waitFor(() => lines.find((line) => line.msg === 'redis watchdog started'), 'the watchdog'),
    ).toMatchObject({ watchdogPid, redisPid: target.child.pid });

    await watchdog.release();
    expect(processEnded(watchdogPid)).toBe(true);
    expect(watchdog.pid).toBeUndefined();
    expect(target.child.exitCode).toBeNull();
    expect(target.lines().map((line) => line.msg)).toEqual(['ready']);
    target.child.kill('SIGTERM');
    expect(await target.exited).toEqual({ code: 0, signal: null });
  });

  it('replaces a watchdog that is killed on its own', async () => {
    const target = startTarget(false);
    await target.waitForLog('ready');
    const { log, lines } = captureLog();
    const watchdog = startRedisWatchdog({ redisPid: target.child.pid as number, log });
    try {
      const first = watchdog.pid as number;
      process.kill(first, 'SIGKILL');
      const second = await waitFor(
        () => (watchdog.pid !== undefined && watchdog.pid !== first ? watchdog.pid : undefined),
        'a new watchdog',
      );
      expect(processEnded(second)).toBe(false);
      expect(
        lines.find((line) => line.msg === 'redis watchdog exited unexpectedly, starting another'),
      ).toMatchObject({
        level: 'warn',
        watchdogPid: first,
        signal: 'SIGKILL',
      });
      // The server was not touched meanwhile.
      expect(target.child.exitCode).toBeNull();
      expect(target.lines().map((line) => line.msg)).toEqual(['ready']);
    } finally {
      await watchdog.release();
    }
  });
});
