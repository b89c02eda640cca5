import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/api-error.js';
import { DocsApiClient } from '../../../src/api/docs-api-client.js';
import { paginate } from '../../../src/api/paginate.js';
import { sendJson, startCannedServer } from './canned-server.js';
import { changeRequest, TOKEN } from './fixtures.js';

const clients: DocsApiClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

function clientFor(baseUrl: string): DocsApiClient {
  const client = new DocsApiClient({ baseUrl, token: TOKEN, timeoutMs: 2000, sleep: async () => {} });
  clients.push(client);
  return client;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('pagination', () => {
  it('follows next.page across three pages, 1000 at a time', async () => {
    const pages: Record<string, unknown> = {
      first: { items: [changeRequest('cr1', 1), changeRequest('cr2', 2)], next: { page: 'p2' } },
      p2: { items: [changeRequest('cr3', 3)], next: { page: 'p3' }, count: 1 },
      p3: { items: [changeRequest('cr4', 4)] },
    };
    const server = await startCannedServer((request, response) => {
      const page = new URL(request.url, 'http://x').searchParams.get('page') ?? 'first';
      sendJson(response, 200, pages[page]);
    });

    const items = await collect(clientFor(server.baseUrl).changeRequests.listAll('sp1', { status: 'open' }));

    expect(items.map((item) => item.id)).toEqual(['cr1', 'cr2', 'cr3', 'cr4']);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v1/spaces/sp1/change-requests?limit=1000&status=open',
      '/v1/spaces/sp1/change-requests?page=p2&limit=1000&status=open',
      '/v1/spaces/sp1/change-requests?page=p3&limit=1000&status=open',
    ]);
  });

  it('stops fetching when the consumer stops reading', async () => {
    const server = await startCannedServer((_request, response) =>
      sendJson(response, 200, {
        items: [changeRequest('a', 1), changeRequest('b', 2)],
        next: { page: 'more' },
      }),
    );
    for await (const item of clientFor(server.baseUrl).changeRequests.listAll('sp1')) {
      expect(item.id).toBe('a');
      break;
    }
    expect(server.requests).toHaveLength(1);
  });

  it('fails on a cursor the service already gave, instead of looping', async () => {
    const server = await startCannedServer((request, response) => {
      const page = new URL(request.url, 'http://x').searchParams.get('page');
      sendJson(response, 200, {
        items: [changeRequest(`cr-${page ?? 'first'}`, 1)],
        next: { page: page === 'a' ? 'b' : 'a' },
      });
    });

    const read = collect(clientFor(server.baseUrl).changeRequests.listAll('sp1'));

    await expect(read).rejects.toBeInstanceOf(ApiError);
    await expect(read).rejects.toMatchObject({
      code: 'API_RESPONSE_INVALID',
      path: '/spaces/sp1/change-requests',
      retryable: false,
    });
    // first, a, b; then a again is refused before it is fetched.
    expect(server.requests).toHaveLength(3);
  });

  it('reads a single page without a cursor', async () => {
    const seen: Array<string | undefined> = [];
    const items = await collect(
      paginate(async (page) => {
        seen.push(page);
        return { items: [1, 2, 3] };
      }),
    );
    expect(items).toEqual([1, 2, 3]);
    expect(seen).toEqual([undefined]);
  });

  it('catches a cursor that points at itself', async () => {
    const read = collect(paginate(async () => ({ items: ['x'], next: { page: 'same' } })));
    await expect(read).rejects.toMatchObject({ code: 'API_RESPONSE_INVALID' });
  });
});
