import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiPath } from '../../../src/api/api-path.js';
import { HttpTransport, type HttpTransportOptions } from '../../../src/api/http-transport.js';
import { pageOf } from '../../../src/api/schemas/page-of.js';
import { spaceSchema } from '../../../src/api/schemas/space-schema.js';
import { isPermanent } from '../../../src/queue/retry-policy.js';
import { apiErrorOf } from '../../support/api-error-of.js';
import { captureLog } from '../../support/test-context.js';
import { sendError, sendHtmlPage, sendJson, startCannedServer } from './canned-server.js';
import { space, TOKEN } from './fixtures.js';

const transports: HttpTransport[] = [];

afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
});

/** A transport whose backoff only records the waits it would make. */
function transportFor(baseUrl: string, options: Partial<HttpTransportOptions> = {}) {
  const sleeps: number[] = [];
  const transport = new HttpTransport({
    baseUrl,
    token: TOKEN,
    timeoutMs: 2000,
    random: () => 0,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  transports.push(transport);
  return { transport, sleeps };
}

const anything = z.unknown();
/** What a 204 or 205 answer holds: no body at all. */
const noBody = z.undefined();

describe('the HTTP transport', () => {
  it('sends the bearer token, Accept */* and a JSON body under the base path', async () => {
    const server = await startCannedServer((_request, response) => sendJson(response, 201, space()));
    const { transport } = transportFor(server.baseUrl);

    await transport.request('POST', apiPath`/orgs/${'org 1'}/spaces`, {
      query: { dryRun: false, tags: ['a', 'b'], skipped: undefined },
      body: { title: 'Docs' },
      schema: spaceSchema,
    });

    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/orgs/org%201/spaces?dryRun=false&tags=a&tags=b');
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers.accept).toBe('*/*');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({ title: 'Docs' });
  });

  it('sends no Content-Type without a body', async () => {
    const server = await startCannedServer((_request, response) => sendJson(response, 200, space()));
    const { transport } = transportFor(server.baseUrl);
    await transport.request('GET', apiPath`/spaces/sp1`, { schema: spaceSchema });
    expect(server.requests[0]?.headers['content-type']).toBeUndefined();
  });

  it('parses and validates the JSON answer, keeping fields the schema does not name', async () => {
    const server = await startCannedServer((_request, response) => sendJson(response, 200, space('sp9')));
    const { transport } = transportFor(server.baseUrl);
    const result = await transport.request('GET', apiPath`/spaces/sp9`, { schema: spaceSchema });
    expect(result.id).toBe('sp9');
    expect(result.revision).toBe('rev1');
    expect(result.somethingNew).toEqual({ the: 'service may add fields' });
  });

  it('rejects an answer that does not match the schema, naming the field path', async () => {
    const broken = { items: [space('a'), { ...space('b'), revision: 42 }] };
    const server = await startCannedServer((_request, response) => sendJson(response, 200, broken));
    const { transport, sleeps } = transportFor(server.baseUrl);

    const error = await apiErrorOf(
      transport.request('GET', apiPath`/spaces`, { schema: pageOf(spaceSchema) }),
    );

    expect(error.code).toBe('API_RESPONSE_INVALID');
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(200);
    expect(error.message).toContain('items[1].revision');
    expect(error.issues[0]).toMatch(/^items\[1\]\.revision: /);
    expect(sleeps).toEqual([]);
  });

  it('retries a GET answered with an HTML page and 200, as a 5xx, and returns the JSON that follows', async () => {
    const server = await startCannedServer((_request, response, index) =>
      index === 0 ? sendHtmlPage(response) : sendJson(response, 200, space('sp7')),
    );
    const { transport, sleeps } = transportFor(server.baseUrl);
    const read = await transport.request('GET', apiPath`/spaces/sp7`, { schema: spaceSchema });
    expect(read.id).toBe('sp7');
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toEqual([250]);
  });

  it('gives up on bodies that are never JSON after the policy’s attempts, still worth a later try', async () => {
    const server = await startCannedServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"object": "space", ');
    });
    const { transport, sleeps } = transportFor(server.baseUrl);
    const error = await apiErrorOf(transport.request('GET', apiPath`/spaces/x`, { schema: spaceSchema }));
    expect(error.code).toBe('API_RESPONSE_INVALID');
    expect(error.message).toBe('GET /spaces/x: response body is not JSON');
    expect(server.requests).toHaveLength(4);
    expect(sleeps).toEqual([250, 500, 1000]);
    // The job that made the call fails for now, not for good: BullMQ tries it again.
    expect(error.retryable).toBe(true);
    expect(isPermanent(error)).toBe(false);
  });

  it('does not repeat a POST answered with an HTML page, which the service may have acted on', async () => {
    const server = await startCannedServer((_request, response) => sendHtmlPage(response));
    const { transport, sleeps } = transportFor(server.baseUrl);
    const error = await apiErrorOf(
      transport.request('POST', apiPath`/spaces/sp1/change-requests`, { body: {}, schema: anything }),
    );
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(error.retryable).toBe(true);
    expect(isPermanent(error)).toBe(false);
  });

  it('turns a 404 with an error body into a final ApiError, without retrying', async () => {
    const server = await startCannedServer((_request, response) =>
      sendError(response, 404, 'Space not found', { 'x-request-id': 'req-42' }),
    );
    const { transport, sleeps } = transportFor(server.baseUrl);

    const error = await apiErrorOf(
      transport.request('GET', apiPath`/spaces/${'gone'}`, {
        query: { shareKey: 'sk-secret' },
        schema: spaceSchema,
      }),
    );

    expect(error).toMatchObject({
      code: 'API_HTTP_ERROR',
      status: 404,
      method: 'GET',
      path: '/spaces/gone',
      requestId: 'req-42',
      retryable: false,
      serviceMessage: 'Space not found',
    });
    expect(error.message).toBe('GET /spaces/gone: 404 Space not found');
    expect(error.message).not.toContain('sk-secret');
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a GET answered 503 and returns the answer that follows', async () => {
    const server = await startCannedServer((_request, response, index) =>
      index < 2 ? sendError(response, 503, 'busy') : sendJson(response, 200, space()),
    );
    const { transport, sleeps } = transportFor(server.baseUrl);

    const result = await transport.request('GET', apiPath`/spaces/sp1`, { schema: spaceSchema });

    expect(result.id).toBe('sp1');
    expect(server.requests).toHaveLength(3);
    // random() = 0 takes no jitter away: the base delay, then twice that.
    expect(sleeps).toEqual([250, 500]);
  });

  it('gives up after the policy’s attempts', async () => {
    const server = await startCannedServer((_request, response) => sendError(response, 502, 'bad gateway'));
    const { transport, sleeps } = transportFor(server.baseUrl, { retry: { maxAttempts: 3 } });
    const error = await apiErrorOf(transport.request('GET', apiPath`/spaces/sp1`, { schema: spaceSchema }));
    expect(error).toMatchObject({ code: 'API_HTTP_ERROR', status: 502, retryable: true });
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it('does not retry a POST answered 503', async () => {
    const server = await startCannedServer((_request, response) => sendError(response, 503, 'busy'));
    const { transport, sleeps } = transportFor(server.baseUrl);

    const error = await apiErrorOf(
      transport.request('POST', apiPath`/spaces/sp1/change-requests`, { body: {}, schema: anything }),
    );

    expect(error).toMatchObject({ code: 'API_HTTP_ERROR', status: 503, retryable: true });
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('waits as long as a 429 Retry-After in seconds asks', async () => {
    const server = await startCannedServer((_request, response, index) =>
      index === 0
        ? sendError(response, 429, 'slow down', { 'retry-after': '2' })
        : sendJson(response, 200, space()),
    );
    const { transport, sleeps } = transportFor(server.baseUrl);
    await transport.request('GET', apiPath`/spaces/sp1`, { schema: spaceSchema });
    expect(sleeps).toEqual([2000]);
    expect(server.requests).toHaveLength(2);
  });

  it('tells its retry hook about each wait, by route template, and survives a hook that throws', async () => {
    const server = await startCannedServer((_request, response, index) =>
      index === 0
        ? sendError(response, 429, 'slow down', { 'retry-after': '2' })
        : sendJson(response, 200, space()),
    );
    const retries: unknown[] = [];
    const { transport } = transportFor(server.baseUrl, {
      onRetry: (event) => {
        retries.push(event);
        throw new Error('a broken hook');
      },
    });
    await transport.request('GET', apiPath`/spaces/${'sp1'}`, { schema: spaceSchema });
    expect(retries).toEqual([
      { method: 'GET', route: '/spaces/{}', attempt: 1, status: 429, code: 'API_HTTP_ERROR', delayMs: 2000 },
    ]);
  });

  it('reads a Retry-After given as an HTTP date', async () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    const server = await startCannedServer((_request, response, index) =>
      index === 0
        ? sendError(response, 503, 'maintenance', { 'retry-after': 'Sun, 01 Jun 2025 12:00:05 GMT' })
        : sendJson(response, 200, space()),
    );
    const { transport, sleeps } = transportFor(server.baseUrl, { now: () => now });
    await transport.request('GET', apiPath`/spaces/sp1`, { schema: spaceSchema });
    expect(sleeps).toEqual([5000]);
  });

  it('hands a Retry-After too long to wait out back to the caller', async () => {
    const server = await startCannedServer((_request, response) =>
      sendError(response, 429, 'quota', { 'retry-after': '3600' }),
    );
    const { transport, sleeps } = transportFor(server.baseUrl);
    const error = await apiErrorOf(transport.request('GET', apiPath`/spaces/sp1`, { schema: spaceSchema }));
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 3_600_000 });
    expect(sleeps).toEqual([]);
  });

  it('retries a GET whose connection the server closed', async () => {
    const server = await startCannedServer((_request, response, index) => {
      if (index === 0) response.socket?.destroy();
      else sendJson(response, 200, space());
    });
    const { transport, sleeps } = transportFor(server.baseUrl);
    const result = await transport.request('GET', apiPath`/spaces/sp1`, { schema: spaceSchema });
    expect(result.id).toBe('sp1');
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('reports a server that is gone as a network error, after retrying', async () => {
    const server = await startCannedServer((_request, response) => sendJson(response, 200, space()));
    await server.close();
    const { transport, sleeps } = transportFor(server.baseUrl);

    const error = await apiErrorOf(transport.request('GET', apiPath`/spaces/sp1`, { schema: spaceSchema }));

    expect(error).toMatchObject({ code: 'API_NETWORK_ERROR', status: 0, retryable: true });
    expect(error.systemCode).toBe('ECONNREFUSED');
    expect(sleeps).toHaveLength(3);
  });

  it('retries even a POST when the connection was refused, since nothing was sent', async () => {
    const server = await startCannedServer((_request, response) => sendJson(response, 200, {}));
    await server.close();
    const { transport, sleeps } = transportFor(server.baseUrl);
    const error = await apiErrorOf(transport.request('POST', apiPath`/orgs/o/ping`, { schema: anything }));
    expect(error.code).toBe('API_NETWORK_ERROR');
    expect(sleeps).toHaveLength(3);
  });

  it('does not retry a POST whose connection broke after sending', async () => {
    const server = await startCannedServer((_request, response) => response.socket?.destroy());
    const { transport, sleeps } = transportFor(server.baseUrl);
    const error = await apiErrorOf(transport.request('POST', apiPath`/orgs/o/ping`, { schema: anything }));
    expect(error.code).toBe('API_NETWORK_ERROR');
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('gives up on an answer that does not come in time', async () => {
    const server = await startCannedServer(() => {
      // Never answers.
    });
    const { transport } = transportFor(server.baseUrl, { timeoutMs: 150, retry: { maxAttempts: 1 } });
    const error = await apiErrorOf(transport.request('GET', apiPath`/spaces/sp1`, { schema: spaceSchema }));
    expect(error).toMatchObject({ code: 'API_TIMEOUT', status: 0, retryable: true });
    expect(error.message).toBe('GET /spaces/sp1: no complete answer within 150 ms');
  });

  it('stops when the caller aborts, and does not retry', async () => {
    const server = await startCannedServer(() => {
      // Never answers; the caller gives up first.
    });
    const { transport, sleeps } = transportFor(server.baseUrl);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await apiErrorOf(
      transport.request('GET', apiPath`/spaces/sp1`, { signal: controller.signal, schema: spaceSchema }),
    );
    expect(error).toMatchObject({ code: 'API_ABORTED', retryable: false });
    expect(sleeps).toEqual([]);
  });

  it('sends nothing when the signal has already fired', async () => {
    const server = await startCannedServer((_request, response) => sendJson(response, 200, space()));
    const { transport } = transportFor(server.baseUrl);
    const error = await apiErrorOf(
      transport.request('GET', apiPath`/spaces/sp1`, { signal: AbortSignal.abort(), schema: spaceSchema }),
    );
    expect(error.code).toBe('API_ABORTED');
    expect(server.requests).toHaveLength(0);
  });

  it('stops waiting to retry when the caller aborts', async () => {
    const server = await startCannedServer((_request, response) => sendError(response, 503, 'busy'));
    const controller = new AbortController();
    const { transport } = transportFor(server.baseUrl, {
      sleep: async () => {
        controller.abort();
      },
    });
    const error = await apiErrorOf(
      transport.request('GET', apiPath`/spaces/sp1`, { signal: controller.signal, schema: spaceSchema }),
    );
    expect(error.code).toBe('API_ABORTED');
    expect(server.requests).toHaveLength(1);
  });

  it('stops the built-in backoff wait when the caller aborts', async () => {
    const server = await startCannedServer((_request, response) => sendError(response, 503, 'busy'));
    const transport = new HttpTransport({
      baseUrl: server.baseUrl,
      token: TOKEN,
      timeoutMs: 2000,
      retry: { baseDelayMs: 60_000 },
    });
    transports.push(transport);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await apiErrorOf(
      transport.request('GET', apiPath`/spaces/sp1`, { signal: controller.signal, schema: spaceSchema }),
    );
    expect(error.code).toBe('API_ABORTED');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it.each([204, 205])('reads a %i answer as no body', async (status) => {
    const server = await startCannedServer((_request, response) => {
      response.writeHead(status);
      response.end();
    });
    const { transport } = transportFor(server.baseUrl);
    const result = await transport.request('DELETE', apiPath`/spaces/sp1`, {
      schema: noBody,
      expect: [204, 205],
    });
    expect(result).toBeUndefined();
  });

  it('refuses a success status the caller did not expect', async () => {
    const server = await startCannedServer((_request, response) => sendJson(response, 200, { ok: true }));
    const { transport } = transportFor(server.baseUrl);
    const error = await apiErrorOf(
      transport.request('DELETE', apiPath`/spaces/sp1`, { schema: noBody, expect: [205] }),
    );
    expect(error).toMatchObject({ code: 'API_RESPONSE_INVALID', status: 200 });
  });

  it('stops reading a body larger than the cap', async () => {
    const server = await startCannedServer((_request, response) =>
      sendJson(response, 200, { items: Array.from({ length: 200 }, () => space()) }),
    );
    const { transport } = transportFor(server.baseUrl, { maxBodyBytes: 4096 });
    const error = await apiErrorOf(transport.request('GET', apiPath`/spaces`, { schema: anything }));
    expect(error).toMatchObject({ code: 'API_RESPONSE_TOO_LARGE', retryable: false });
  });

  it('logs each attempt at debug with method, route, status and duration, never the token', async () => {
    const server = await startCannedServer((_request, response, index) =>
      index === 0 ? sendError(response, 503, `no ${TOKEN}`) : sendJson(response, 200, space()),
    );
    const { log, lines } = captureLog('debug');
    const { transport } = transportFor(server.baseUrl, { logger: log });
    await transport.request('GET', apiPath`/spaces/${'sp1'}`, { schema: spaceSchema });

    const attempts = lines.filter((line) => line.msg === 'api request');
    expect(attempts).toHaveLength(2);
    expect(attempts[1]).toMatchObject({
      level: 'debug',
      method: 'GET',
      route: '/spaces/{}',
      path: '/spaces/sp1',
      status: 200,
      attempt: 2,
    });
    expect(typeof attempts[1]?.durationMs).toBe('number');
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it('closes once, and refuses requests afterwards', async () => {
    const server = await startCannedServer((_request, response) => sendJson(response, 200, space()));
    const { transport } = transportFor(server.baseUrl);
    await transport.request('GET', apiPath`/spaces/sp1`, { schema: spaceSchema });
    await Promise.all([transport.close(), transport.close()]);
    const error = await apiErrorOf(transport.request('GET', apiPath`/spaces/sp1`, { schema: spaceSchema }));
    expect(error.code).toBe('API_CLIENT_CLOSED');
  });

  it('refuses a base URL carrying credentials without repeating them', () => {
    expect(
      () => new HttpTransport({ baseUrl: 'https://u:pw-123@x.test/v1', token: TOKEN, timeoutMs: 1000 }),
    ).toThrow(/must not carry credentials.*: https:\/\/\*\*\*@x\.test\/v1$/);
  });
});
