// A 429 with Retry-After holds every request of the client, not only the refused one: the service
// limits the token, so the others would be refused too and count against it. The waits are recorded
// by the transport's injected sleep, so nothing here depends on the machine's speed.
import { afterEach, describe, expect, it } from 'vitest';
import { apiPath } from '../../../src/api/api-path.js';
import { HttpTransport } from '../../../src/api/http-transport.js';
import { spaceSchema } from '../../../src/api/schemas/space-schema.js';
import { sendError, sendJson, startCannedServer } from './canned-server.js';
import { space, TOKEN } from './fixtures.js';

const transports: HttpTransport[] = [];

afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
});

describe('a rate limit of the service', () => {
  it('holds the next requests for the Retry-After, and the refused one waits it once', async () => {
    const server = await startCannedServer((request, response, index) =>
      index === 0 && request.url === '/v1/spaces/sp1'
        ? sendError(response, 429, 'slow down', { 'retry-after': '2' })
        : sendJson(response, 200, space()),
    );
    const sleeps: Array<{ path: string; ms: number }> = [];
    let current = '';
    const transport = new HttpTransport({
      baseUrl: server.baseUrl,
      token: TOKEN,
      timeoutMs: 2000,
      random: () => 0,
      sleep: async (ms) => {
        sleeps.push({ path: current, ms });
      },
    });
    transports.push(transport);

    current = '/spaces/sp1';
    await transport.request('GET', apiPath`/spaces/sp1`, { schema: spaceSchema });
    expect(sleeps).toEqual([{ path: '/spaces/sp1', ms: 2000 }]);

    // The sleeps above return at once: the pause of 2 s is still ahead for another request.
    current = '/spaces/sp2';
    await transport.request('GET', apiPath`/spaces/sp2`, { schema: spaceSchema });
    expect(sleeps).toHaveLength(2);
    expect(sleeps[1]?.path).toBe('/spaces/sp2');
    expect(sleeps[1]?.ms).toBeGreaterThan(0);
    expect(sleeps[1]?.ms).toBeLessThanOrEqual(2000);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v1/spaces/sp1',
      '/v1/spaces/sp1',
      '/v1/spaces/sp2',
    ]);
  });

  it('does not hold other requests after a 503, which limits nothing', async () => {
    const server = await startCannedServer((_request, response, index) =>
      index === 0
        ? sendError(response, 503, 'busy', { 'retry-after': '2' })
        : sendJson(response, 200, space()),
    );
    const sleeps: number[] = [];
    const transport = new HttpTransport({
      baseUrl: server.baseUrl,
      token: TOKEN,
      timeoutMs: 2000,
      random: () => 0,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    transports.push(transport);
    await transport.request('GET', apiPath`/spaces/sp1`, { schema: spaceSchema });
    await transport.request('GET', apiPath`/spaces/sp2`, { schema: spaceSchema });
    expect(sleeps).toEqual([2000]);
  });
});
