// `docsync start` binds its HTTP port as soon as the configuration is read: /healthz answers while
// docsync waits for Redis, everything else answers 503 with Retry-After and reveals nothing, and the
// app takes over the same port once Redis answers. The window is held open by a Redis URL nothing
// listens on yet; the test starts a redis-server there when it has looked.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, runCli, startCli } from '../../support/cli-process.js';
import { closeAfter } from '../../support/close-after.js';
import { freePort } from '../../support/free-port.js';
import { startRedisProcess } from '../../support/redis-process.js';
import { tempDir } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const TOKEN = 'early-liveness-token-0123456789';
const STARTING = { ok: false, starting: true, reason: 'docsync is starting' };

describe('docsync start serves liveness before it is ready', () => {
  it('answers /healthz at once, 503 with Retry-After elsewhere until Redis answers, then the app', async () => {
    const dir = await tempDir('early-liveness');
    const redisPort = await freePort();
    const file = join(dir, 'docsync.yaml');
    await writeFile(
      file,
      [
        `dataDir: ${join(dir, 'data')}`,
        'redis:',
        `  url: redis://127.0.0.1:${redisPort}`,
        'http:',
        '  listen: 127.0.0.1:0',
        `  token: ${TOKEN}`,
        '',
      ].join('\n'),
    );
    const run = startCli(['start', '--config', file]);
    const address = (await run.waitForLog('http server listening')).address as string;
    const auth = { headers: { authorization: `Bearer ${TOKEN}` } };

    // Nothing listens on the Redis port: docsync is still starting, whatever the timing.
    const health = await fetch(`${address}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
    const ready = await fetch(`${address}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('1');
    expect(await ready.json()).toEqual(STARTING);
    // Behind the token or not, a path other than /healthz says only that docsync is starting.
    for (const init of [{}, auth]) {
      const status = await fetch(`${address}/status`, init);
      expect(status.status).toBe(503);
      expect(status.headers.get('retry-after')).toBe('1');
      expect(status.headers.get('www-authenticate')).toBeNull();
      expect(await status.json()).toEqual(STARTING);
    }
    const hook = await fetch(`${address}/hooks/git`, { method: 'POST', body: '{}' });
    expect(hook.status).toBe(503);
    expect(await hook.json()).toEqual(STARTING);
    expect(run.lines().some((line) => line.msg === 'redis connected')).toBe(false);

    await startRedisProcess({ port: redisPort, label: 'early-liveness' });
    // /readyz is behind the token once the app answers (only /healthz is public).
    await waitFor(async () => (await fetch(`${address}/readyz`, auth)).status === 200, '/readyz 200');
    expect(await (await fetch(`${address}/readyz`, auth)).json()).toEqual({ ok: true, redis: 'ok' });
    expect((await fetch(`${address}/readyz`)).status).toBe(401);
    // The app answers on the same port now, with its own rules: the token for /status.
    expect((await fetch(`${address}/status`)).status).toBe(401);
    expect((await fetch(`${address}/status`, auth)).status).toBe(200);
    expect((await fetch(`${address}/healthz`)).status).toBe(200);
    await run.waitForLog('docsync started');
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.lines().at(-1)).toMatchObject({ msg: 'shutdown complete', exitCode: 0 });
  });

  it('closes the early server when the start fails after it: no redis-server to embed', async () => {
    const dir = await tempDir('early-liveness-half');
    const file = join(dir, 'docsync.yaml');
    await writeFile(file, `dataDir: ${join(dir, 'data')}\nhttp:\n  listen: 127.0.0.1:0\n`);
    const run = startCli(['start', '--config', file], { env: cliEnv({ PATH: '/nonexistent/empty-path' }) });
    expect(await run.exited).toEqual({ code: 2, signal: null });
    expect(run.stderr()).toMatch(/^docsync: redis-server was not found on PATH/);
    const messages = run.lines().map((line) => line.msg);
    expect(messages[0]).toBe('http server listening');
    // Ended because the shutdown owner closed the server, not by the fallback for open handles.
    expect(messages.at(-1)).toBe('shutdown complete');
    expect(messages).not.toContain('handles still open after shutdown, exiting');
  });

  it('fails fast with exit 2 and the reason when the port is taken, before starting Redis', async () => {
    const dir = await tempDir('early-liveness-taken');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    closeAfter(() => new Promise((resolve) => taken.close(resolve)));
    const address = taken.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const file = join(dir, 'docsync.yaml');
    // No redis.url: had the port been tried after Redis, an embedded redis-server would have started.
    await writeFile(file, `dataDir: ${join(dir, 'data')}\nhttp:\n  listen: 127.0.0.1:${port}\n`);
    const { code, stdout, stderr } = await runCli(['start', '--config', file], { env: cliEnv() });
    expect(code).toBe(2);
    expect(stderr).toBe(
      `docsync: cannot listen on 127.0.0.1:${port} (EADDRINUSE): choose another http.listen\n`,
    );
    const messages = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toContain('docsync cannot start');
    expect(messages.filter((msg) => msg.includes('redis'))).toEqual([]);
    expect(existsSync(join(dir, 'data', 'redis'))).toBe(false);
  });
});
