// The early HTTP server on its own: what it answers while docsync starts, how fastify takes over the
// port it already listens on (the same keep-alive connection too), a port that is taken, and close.
import { Agent, request } from 'node:http';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { EnvironmentError } from '../../../src/errors/environment-error.js';
import { EarlyHttpServer } from '../../../src/http/early-http-server.js';
import { closeAfter } from '../../support/close-after.js';
import { captureLog } from '../../support/test-context.js';

async function listening(port = 0): Promise<EarlyHttpServer> {
  const early = await EarlyHttpServer.listen({ host: '127.0.0.1', port, log: captureLog().log });
  closeAfter(() => early.close());
  return early;
}

describe('EarlyHttpServer', () => {
  it('answers /healthz 200 and everything else 503 with Retry-After while starting', async () => {
    const { address } = await listening();
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const path of ['/healthz', '/healthz?probe=kubelet']) {
      const health = await fetch(`${address}${path}`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ ok: true });
    }
    expect((await fetch(`${address}/healthz`, { method: 'HEAD' })).status).toBe(200);
    for (const [method, path] of [
      ['GET', '/readyz'],
      ['GET', '/status'],
      ['GET', '/'],
      ['POST', '/healthz'],
      ['POST', '/hooks/git'],
    ] as const) {
      const answer = await fetch(`${address}${path}`, {
        method,
        ...(method === 'POST' ? { body: 'x' } : {}),
      });
      expect(answer.status, `${method} ${path}`).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await answer.json()).toEqual({ ok: false, starting: true, reason: 'docsync is starting' });
    }
  });

  it('hands every request to fastify once served, on the same port and connection', async () => {
    const early = await listening();
    const app = Fastify({ serverFactory: early.serverFactory });
    app.get('/status', async () => ({ from: 'fastify' }));
    closeAfter(() => app.close());
    const { port } = new URL(early.address);
    // One keep-alive connection, kept across the hand-off.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    closeAfter(() => agent.destroy());
    const agentRequest = (path: string) =>
      new Promise<{ status: number; body: string; socket: unknown }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => {
            body += chunk.toString('utf8');
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, socket: req.socket }));
        });
        req.once('error', reject);
        req.end();
      });

    const before = await agentRequest('/status');
    expect(before.status).toBe(503);
    await app.ready();
    // Ready is not serving: only `serve()` hands requests over.
    expect((await agentRequest('/status')).status).toBe(503);
    early.serve();
    const after = await agentRequest('/status');
    expect(after).toMatchObject({ status: 200, body: '{"from":"fastify"}' });
    expect(after.socket).toBe(before.socket);
    // fastify's own answers from now on: a path it does not know is its 404, not "starting".
    expect((await agentRequest('/healthz')).status).toBe(404);
  });

  it('fails with HTTP_LISTEN_FAILED when the port is taken', async () => {
    const first = await listening();
    const port = Number(new URL(first.address).port);
    const error = await EarlyHttpServer.listen({ host: '127.0.0.1', port, log: captureLog().log }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(EnvironmentError);
    expect(error).toMatchObject({
      code: 'HTTP_LISTEN_FAILED',
      message: `cannot listen on 127.0.0.1:${port} (EADDRINUSE): choose another http.listen`,
    });
  });

  it('closes once, ending open connections, and frees the port', async () => {
    const early = await listening();
    const { address } = early;
    const agent = new Agent({ keepAlive: true });
    closeAfter(() => agent.destroy());
    await new Promise<void>((resolve, reject) => {
      request(`${address}/healthz`, { agent }, (res) => res.resume().on('end', resolve))
        .once('error', reject)
        .end();
    });
    await Promise.all([early.close(), early.close()]);
    await expect(fetch(`${address}/healthz`)).rejects.toThrow();
  });
});
