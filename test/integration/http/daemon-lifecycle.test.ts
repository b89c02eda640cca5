import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { startDaemon } from '../../../src/daemon/start-daemon.js';
import { ShutdownError } from '../../../src/errors/shutdown-error.js';
import { startEmbeddedRedis } from '../../../src/redis/embedded-redis-server.js';
import { detachedShutdown } from '../../support/detached-shutdown.js';
import { captureLog, tempDir } from '../../support/test-context.js';

function testShutdown() {
  const { log, lines } = captureLog();
  return { log, lines, shutdown: detachedShutdown(log) };
}

describe('the daemon', () => {
  it('answers /readyz with 503 while its Redis is down, and /healthz with 200', async () => {
    const dir = await tempDir('readyz-down');
    const server = await startEmbeddedRedis({ dir, log: captureLog().log });
    const { log, shutdown } = testShutdown();
    const config = parseConfig(
      `redis:\n  url: ${server.url}\nhttp:\n  listen: 127.0.0.1:0\n`,
      'test.yaml',
      {},
    );
    const daemon = await startDaemon({ config, log, jobs: [], shutdown, version: '0.0.0-test' });
    expect((await fetch(`${daemon.httpAddress}/readyz`)).status).toBe(200);
    await server.stop();
    const down = await fetch(`${daemon.httpAddress}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ ok: false, reason: 'redis does not answer' });
    expect((await fetch(`${daemon.httpAddress}/healthz`)).status).toBe(200);
    expect((await fetch(`${daemon.httpAddress}/status`)).status).toBe(503);
    await shutdown.run('test');
  });

  it('stops starting and closes what it opened when the shutdown begins during start', async () => {
    const dir = await tempDir('signal-at-start');
    // The signal arrives as the embedded redis-server has started, its lock file taken, and the rest
    // of the start still to come: within the logging of that line, whatever the machine's speed.
    let stopping: Promise<void> | undefined;
    const { log, lines } = captureLog('debug', (line) => {
      if (line.msg === 'embedded redis-server started') stopping ??= shutdown.run('SIGTERM');
    });
    const shutdown = detachedShutdown(log);
    const config = parseConfig(`dataDir: ${dir}\nhttp:\n  listen: 127.0.0.1:0\n`, 'test.yaml', {});
    const starting = shutdown.starting(
      startDaemon({ config, log, jobs: [], shutdown, version: '0.0.0-test' }),
    );
    await expect(starting).rejects.toBeInstanceOf(ShutdownError);
    expect(stopping).toBeDefined();
    await stopping;
    const messages = lines.map((line) => line.msg);
    expect(messages).not.toContain('docsync started');
    expect(messages).toContain('embedded redis-server stopped');
    expect(messages.at(-1)).toBe('shutdown complete');
    expect(existsSync(join(dir, 'redis', 'docsync.lock'))).toBe(false);
  });
});
