import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../../src/api/api-error.js';
import { apiPath } from '../../../src/api/api-path.js';
import { HttpTransport } from '../../../src/api/http-transport.js';
import { redactSecrets } from '../../../src/api/redact-secrets.js';
import { sanitizeCause } from '../../../src/api/sanitize-cause.js';
import { apiErrorOf } from '../../support/api-error-of.js';
import { sendError, sendJson, startCannedServer } from './canned-server.js';
import { TOKEN } from './fixtures.js';

const transports: HttpTransport[] = [];

afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
});

function transportFor(baseUrl: string, timeoutMs = 2000): HttpTransport {
  const transport = new HttpTransport({
    baseUrl,
    token: TOKEN,
    timeoutMs,
    retry: { maxAttempts: 1 },
  });
  transports.push(transport);
  return transport;
}

/** Every way an error is commonly turned into text, down its chain of causes. */
function renderings(error: Error): string[] {
  const out: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth += 1) {
    out.push(String(current), current.message, current.stack ?? '', JSON.stringify(current));
    out.push(JSON.stringify(Object.getOwnPropertyDescriptors(current), (_key, value: unknown) => value));
    current = current.cause;
  }
  return out;
}

function expectNoToken(error: ApiError): void {
  for (const text of renderings(error)) expect(text).not.toContain(TOKEN);
}

describe('the API token in errors', () => {
  it('is scrubbed from a service message that echoes it', async () => {
    const server = await startCannedServer((_request, response) =>
      sendError(response, 401, `invalid token Bearer ${TOKEN}`),
    );
    const error = await apiErrorOf(
      transportFor(server.baseUrl).request('GET', apiPath`/orgs`, { schema: z.unknown() }),
    );
    expect(error.status).toBe(401);
    expect(error.serviceMessage).toBe('invalid token Bearer [redacted]');
    expectNoToken(error);
  });

  it('never reaches a schema failure', async () => {
    const server = await startCannedServer((_request, response) => sendJson(response, 200, { id: TOKEN }));
    const error = await apiErrorOf(
      transportFor(server.baseUrl).request('GET', apiPath`/orgs/o`, {
        schema: z.looseObject({ id: z.literal('org') }),
      }),
    );
    expect(error.code).toBe('API_RESPONSE_INVALID');
    expectNoToken(error);
  });

  it('never reaches a network error or its cause', async () => {
    const server = await startCannedServer((_request, response) => response.socket?.destroy());
    const error = await apiErrorOf(
      transportFor(server.baseUrl).request('GET', apiPath`/orgs`, { schema: z.unknown() }),
    );
    expect(error.code).toBe('API_NETWORK_ERROR');
    expect(error.cause).toBeInstanceOf(Error);
    expectNoToken(error);
  });

  it('never reaches a timeout', async () => {
    const server = await startCannedServer(() => {
      // Never answers.
    });
    const error = await apiErrorOf(
      transportFor(server.baseUrl, 100).request('GET', apiPath`/orgs`, { schema: z.unknown() }),
    );
    expect(error.code).toBe('API_TIMEOUT');
    expectNoToken(error);
  });

  it('is removed from a low-level cause, which keeps only name, code and message', () => {
    const low = Object.assign(new Error(`write failed: authorization: Bearer ${TOKEN}`), {
      code: 'UND_ERR_SOCKET',
      headers: { authorization: `Bearer ${TOKEN}` },
      cause: new Error(`inner ${TOKEN}`),
    });
    const safe = sanitizeCause(low, [TOKEN]);
    expect(safe?.message).toBe('write failed: authorization: Bearer [redacted]');
    expect(safe).toMatchObject({ code: 'UND_ERR_SOCKET' });
    expect(safe).not.toHaveProperty('headers');
    expect(safe?.cause).toMatchObject({ message: 'inner [redacted]' });
    const error = new ApiError({
      code: 'API_NETWORK_ERROR',
      method: 'GET',
      path: '/orgs',
      message: 'x',
      cause: safe,
    });
    expectNoToken(error);
  });
});

describe('service messages that echo addresses', () => {
  it('lose the query string, where signed bundle addresses carry their signature', () => {
    expect(
      redactSecrets(
        'could not fetch http://127.0.0.1:8787/artifacts/abc?expires=1&signature=deadbeef (404)',
        [],
      ),
    ).toBe('could not fetch http://127.0.0.1:8787/artifacts/abc?[redacted] (404)');
  });
});
