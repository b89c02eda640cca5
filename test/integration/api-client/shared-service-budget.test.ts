// service.rateLimit across processes: three docsync API clients, each as its own process would
// make it (its own Redis connection and transport), share one budget on one Redis. The local
// service logs when each request arrived and through which client's door: no window of `per`
// there sees more than `requests`, and all the work completes. Writes go before reads when the
// bucket is near empty, and a call aborted while it waits for its token rejects at once.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { isApiError } from '../../../src/api/api-error.js';
import { createDocsApiClient } from '../../../src/api/create-docs-api-client.js';
import type { DocsApiClient } from '../../../src/api/docs-api-client.js';
import { type BudgetWaitEvent, ServiceBudget } from '../../../src/api/service-budget.js';
import type { RateLimit } from '../../../src/api/service-budget-script.js';
import { mapBounded } from '../../../src/concurrency/map-bounded.js';
import { closeAfter } from '../../support/close-after.js';
import { busiestWindow, type LoggedService, startLoggedService } from '../../support/service-request-log.js';
import { createTestSpace } from '../../support/start-test-emulator.js';
import { testRedis, uniquePrefix } from '../../support/test-context.js';

interface BudgetedClient {
  client: DocsApiClient;
  budget: ServiceBudget;
  waits: BudgetWaitEvent[];
}

/** A client as one docsync process makes it: its own Redis connection, the budget under `prefix`. */
function budgetedClient(
  service: LoggedService,
  door: number,
  prefix: string,
  limit: RateLimit,
): BudgetedClient {
  const waits: BudgetWaitEvent[] = [];
  const budget = new ServiceBudget({
    redis: testRedis(prefix),
    prefix,
    limit,
    log: pino({ level: 'silent' }),
    onWait: (event) => waits.push(event),
  });
  const client = createDocsApiClient(
    { baseUrl: service.doorUrl(door), token: service.service.tokens.admin, timeout: 10_000 },
    { budget },
  );
  closeAfter(() => client.close());
  return { client, budget, waits };
}

describe('one budget for the service across processes', () => {
  it('keeps three clients together within the limit in every window, and completes all their work', async () => {
    const service = await startLoggedService({ doors: 3 });
    const space = await createTestSpace(service.service);
    const prefix = uniquePrefix('shared-budget');
    const limit = { requests: 30, perMs: 2_000 };
    const clients = [0, 1, 2].map((door) => budgetedClient(service, door, prefix, limit));
    // Each as a daemon's workers would call: a few at once (a burst of a hundred from one test
    // process would arrive hundreds of ms after its tokens, the process's own CPU its queue),
    // together far more than the budget gives.
    const calls = 40;
    const results = (
      await Promise.all(
        clients.map(({ client }, door) =>
          mapBounded(
            Array.from({ length: calls }, (_, n) => n),
            3,
            (n) =>
              n % 2 === 0
                ? client.spaces.get(space).then(() => 'read')
                : client.spaces.update(space, { title: `Docs ${door}-${n}` }).then(() => 'written'),
          ),
        ),
      )
    ).flat();
    expect(results).toHaveLength(3 * calls);
    expect(service.requests.filter((request) => request.door !== undefined)).toHaveLength(3 * calls);
    expect(service.requests.every((request) => request.status < 400)).toBe(true);
    expect(busiestWindow(service, limit.perMs)).toBeLessThanOrEqual(limit.requests);
    // 120 requests at 30 per window: many waited, in every process.
    for (const { waits } of clients) expect(waits.length).toBeGreaterThan(0);
    const use = await clients[0]?.budget.use();
    expect(use?.taken).toBeGreaterThan(0);
    expect(use?.taken).toBeLessThanOrEqual(limit.requests);
  });

  it('lets a write through while a read waits for the reserve to come back', async () => {
    const service = await startLoggedService({ doors: 2 });
    const space = await createTestSpace(service.service);
    const prefix = uniquePrefix('budget-priority');
    const limit = { requests: 8, perMs: 60_000 };
    const reader = budgetedClient(service, 0, prefix, limit);
    const writer = budgetedClient(service, 1, prefix, limit);
    // Six reads leave the reserve: two tokens, for writes only.
    for (let n = 0; n < 6; n += 1) await reader.client.spaces.get(space);
    const stop = new AbortController();
    let readEnded = false;
    const read = reader.client.spaces.get(space, { signal: stop.signal }).finally(() => {
      readEnded = true;
    });
    read.catch(() => undefined);
    await writer.client.spaces.update(space, { title: 'Written first' });
    await writer.client.spaces.update(space, { title: 'Written second' });
    expect(readEnded).toBe(false);
    expect(service.count('GET /v1/spaces/:s')).toBe(6);
    expect(service.count('PATCH /v1/spaces/:s')).toBe(2);

    // The read would wait a minute for its token: aborted, it rejects at once and sends nothing.
    const aborted = Date.now();
    stop.abort();
    const error = await read.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isApiError(error, 'API_ABORTED')).toBe(true);
    expect(Date.now() - aborted).toBeLessThan(1_000);
    expect(service.count('GET /v1/spaces/:s')).toBe(6);
    expect(await reader.budget.use()).toMatchObject({ taken: 8, waits: 1 });
  });

  it('ends the wait of a call when its client closes', async () => {
    const service = await startLoggedService({ doors: 1 });
    const space = await createTestSpace(service.service);
    const prefix = uniquePrefix('budget-close');
    const { client } = budgetedClient(service, 0, prefix, { requests: 1, perMs: 60_000 });
    await client.spaces.update(space, { title: 'The only token' });
    const waiting = client.spaces.update(space, { title: 'Never sent' });
    waiting.catch(() => undefined);
    await client.close();
    expect(isApiError(await waiting.catch((error: unknown) => error), 'API_CLIENT_CLOSED')).toBe(true);
    expect(service.count('PATCH /v1/spaces/:s')).toBe(1);
  });
});
