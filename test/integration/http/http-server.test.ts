import { describe, expect, it } from 'vitest';
import { EMPTY_QUEUE_COUNTS } from '../../support/empty-queue-counts.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { uniquePrefix } from '../../support/test-context.js';

describe('the HTTP server', async () => {
  const daemon = await startTestDaemon({ prefix: uniquePrefix('http') });
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${daemon.httpAddress}${path}`, { headers });

  it('answers /healthz while alive', async () => {
    const response = await get('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('answers /readyz when Redis answers', async () => {
    const response = await get('/readyz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, redis: 'ok' });
  });

  it('shows version, uptime and every queue with its counts on /status, and the counts move', async () => {
    const before = (await (await get('/status')).json()) as {
      version: string;
      uptimeSeconds: number;
      queues: Record<string, Record<string, number>>;
    };
    expect(before.version).toBe('0.0.0-test');
    expect(before.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(Object.keys(before.queues)).toEqual([
      'import',
      'maintain',
      'export',
      'openapi',
      'links',
      'notify',
    ]);
    expect(before.queues.links).toEqual(EMPTY_QUEUE_COUNTS);

    await daemon.queues.get('links').add('check-links', { space: 's1' }, { delay: 60_000 });
    const after = (await (await get('/status')).json()) as { queues: Record<string, Record<string, number>> };
    expect(after.queues.links?.delayed).toBe(1);
  });

  it('says it is not ready once shutdown begins, while it drains', async () => {
    const other = await startTestDaemon({ prefix: uniquePrefix('http-stop') });
    let release: () => void = () => {};
    // Registered last, so it runs first: the HTTP server is still open while it waits.
    other.shutdown.add('hold', () => new Promise<void>((resolve) => (release = resolve)));
    const stopping = other.shutdown.run('test');
    const response = await fetch(`${other.httpAddress}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ ok: false, reason: 'shutting down' });
    expect((await fetch(`${other.httpAddress}/healthz`)).status).toBe(200);
    release();
    await stopping;
    await expect(fetch(`${other.httpAddress}/healthz`)).rejects.toThrow();
  });
});

describe('the HTTP server with http.token', async () => {
  const token = 'a-token-of-sixteen-chars';
  const daemon = await startTestDaemon({ prefix: uniquePrefix('http-token'), yaml: `  token: ${token}\n` });

  it('keeps /healthz open and closes everything else without the token', async () => {
    expect((await fetch(`${daemon.httpAddress}/healthz`)).status).toBe(200);
    const refused = await fetch(`${daemon.httpAddress}/status`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      error: { code: 401, message: 'a bearer token is required: send Authorization: Bearer <http.token>' },
    });
    expect(
      (
        await fetch(`${daemon.httpAddress}/readyz`, {
          headers: { authorization: 'Bearer wrong-token-of-same-len' },
        })
      ).status,
    ).toBe(401);
    expect(
      (await fetch(`${daemon.httpAddress}/status`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
  });
});
