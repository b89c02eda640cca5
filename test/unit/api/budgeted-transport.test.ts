// Where the transport asks the shared budget (service.rateLimit): before each attempt it sends to
// the service, writes as high priority and reads as low, after a 429's Retry-After has been waited
// out (the pause still holds everything), and never for a download from another origin. The budget
// here records what it is asked and answers at once; its Redis side has tests of its own.
import { afterEach, describe, expect, it } from 'vitest';
import { apiPath } from '../../../src/api/api-path.js';
import { HttpTransport } from '../../../src/api/http-transport.js';
import type { RequestPriority } from '../../../src/api/request-priority.js';
import { spaceSchema } from '../../../src/api/schemas/space-schema.js';
import type { RequestBudget } from '../../../src/api/service-budget.js';
import { sendError, sendJson, startCannedServer } from './canned-server.js';
import { space, TOKEN } from './fixtures.js';

const transports: HttpTransport[] = [];

afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
});

/** What happened, in order: the budget's takes and the transport's sleeps. */
function recording(): { steps: string[]; budget: RequestBudget } {
  const steps: string[] = [];
  return {
    steps,
    budget: {
      take: async (priority: RequestPriority) => {
        steps.push(`take ${priority}`);
      },
    },
  };
}

describe('the transport with a shared budget', () => {
  it('takes a token for each attempt, after the Retry-After of a 429', async () => {
    const server = await startCannedServer((_request, response, index) =>
      index === 0
        ? sendError(response, 429, 'slow down', { 'retry-after': '2' })
        : sendJson(response, 200, space()),
    );
    const { steps, budget } = recording();
    const transport = new HttpTransport({
      baseUrl: server.baseUrl,
      token: TOKEN,
      timeoutMs: 2000,
      random: () => 0,
      budget,
      sleep: async (ms) => {
        steps.push(`sleep ${ms}`);
      },
    });
    transports.push(transport);
    await transport.request('GET', apiPath`/spaces/sp1`, { schema: spaceSchema });
    await transport.request('PATCH', apiPath`/spaces/sp1`, { schema: spaceSchema, body: { title: 'New' } });
    expect(steps[0]).toBe('take low');
    expect(steps[1]).toBe('sleep 2000');
    expect(steps[2]).toBe('take low');
    // The pause is still ahead for the write: it waits first, then takes its token.
    expect(steps[3]).toMatch(/^sleep \d+$/);
    expect(steps[4]).toBe('take high');
    expect(steps).toHaveLength(5);
  });

  it('takes none for a download from another origin', async () => {
    const service = await startCannedServer((_request, response) => sendJson(response, 200, space()));
    const cdn = await startCannedServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end('bytes');
    });
    const { steps, budget } = recording();
    const transport = new HttpTransport({ baseUrl: service.baseUrl, token: TOKEN, timeoutMs: 2000, budget });
    transports.push(transport);
    const bytes = await transport.download(`${cdn.baseUrl}/files/a.png`, { maxBytes: 1024 });
    expect(bytes.toString()).toBe('bytes');
    expect(steps).toEqual([]);
  });
});
